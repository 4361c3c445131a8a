import { data, type LoaderFunction, type RouterContext, type ServerBuild } from "react-router";
import type { RequestContext } from "~/context";
import { requestContextKeyOf } from "~/lib/router-context.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "./database-busy.server";
import { isDatabaseUnavailable } from "./db.server";

/** The status of a page that could not read the database for a moment (decision 0076). */
export const DATABASE_UNAVAILABLE_STATUS = 503;

/**
 * `loader`, answering a database that cannot be read for a moment with a 503 route error response
 * (Retry-After, logged with the error code only) instead of letting it reach the error boundary as
 * a bug: React Router keeps a thrown response's status through the document, the `.data` request of a
 * client navigation and the hydration, where a thrown error is sanitized to a bare 500.
 */
export function answeringDatabaseOutage(
  routeId: string,
  loader: LoaderFunction,
  contextKey: RouterContext<RequestContext>,
): LoaderFunction {
  return async (args) => {
    try {
      return await loader(args);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const context = args.context.get(contextKey);
      context.logger.warn({
        msg: "page not shown: database unavailable",
        requestId: context.requestId,
        routeId,
        code: (error as { code?: unknown }).code ?? null,
      });
      throw data(null, {
        status: DATABASE_UNAVAILABLE_STATUS,
        headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
  };
}

/**
 * The build with every route's loader wrapped by `answeringDatabaseOutage`: one place, so that a
 * new page that reads the database cannot forget it. Actions keep their own answer (a 503 with the
 * form kept, database-busy.server.ts).
 */
export function withDatabaseOutagePages(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  const contextKey = requestContextKeyOf(build);
  for (const [id, route] of Object.entries(build.routes)) {
    const loader = route?.module.loader;
    routes[id] =
      route && loader
        ? {
            ...route,
            module: { ...route.module, loader: answeringDatabaseOutage(id, loader, contextKey) },
          }
        : route;
  }
  return { ...build, routes };
}
