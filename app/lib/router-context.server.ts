import {
  createContext,
  RouterContextProvider,
  type RouterContext,
  type ServerBuild,
} from "react-router";
import type { RequestContext } from "~/context";

/**
 * Where React Router keeps a request's RequestContext: loaders and actions read it with
 * `context.get(requestContext)`. The server build exports it (entry.server.tsx), and the Express
 * layer, bundled apart with its own copy of this module, stores the context under the build's
 * (`requestContextKeyOf`).
 */
export const requestContext: RouterContext<RequestContext> = createContext<RequestContext>();

/**
 * The key the given server build reads a request's context with. A build that exports none (the
 * bench's minimal reference app, on React Router's default entry) reads no context: this module's
 * own key serves.
 */
export function requestContextKeyOf(build: ServerBuild): RouterContext<RequestContext> {
  const exported = (build.entry.module as { requestContext?: RouterContext<RequestContext> })
    .requestContext;
  return exported ?? requestContext;
}

/** React Router's context for one request: `context` under the build's key. */
export function routerContextFor(
  key: RouterContext<RequestContext>,
  context: RequestContext,
): RouterContextProvider {
  const routerContext = new RouterContextProvider();
  routerContext.set(key, context);
  return routerContext;
}
