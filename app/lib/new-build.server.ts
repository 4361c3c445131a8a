import {
  redirectDocument,
  type LoaderFunction,
  type RouterContext,
  type ServerBuild,
} from "react-router";
import type { RequestContext } from "~/context";
import { BUILD_VERSION_HEADER } from "./data-requests";
import { requestContextKeyOf } from "./router-context.server";

/**
 * The root loader, answering a data request from a page of another build with a full page load of
 * the address asked for (decision 0108). A tab opened before a deploy runs the earlier build's
 * code and asks for the earlier build's script chunks, which may be gone; its next navigation loads
 * the new build as a document instead. The root loader runs for every navigation's data request
 * (and the revalidation after a form), never for a document request, which carries no version.
 */
export function loadingNewBuild(
  loader: LoaderFunction,
  serverVersion: string,
  contextKey: RouterContext<RequestContext>,
): LoaderFunction {
  return (args) => {
    const pageVersion = args.request.headers.get(BUILD_VERSION_HEADER);
    if (pageVersion !== null && pageVersion !== serverVersion) {
      const page = `${args.url.pathname}${args.url.search}`;
      const context = args.context.get(contextKey);
      context.logger.info({
        msg: "page of an earlier build: loading the new one",
        requestId: context.requestId,
        pageVersion: pageVersion.slice(0, 40),
        serverVersion,
      });
      throw redirectDocument(page);
    }
    return loader(args);
  };
}

/** The build with its root loader wrapped by `loadingNewBuild`. */
export function withNewBuildDocumentLoads(build: ServerBuild): ServerBuild {
  const root = build.routes.root;
  const loader = root?.module.loader;
  if (!loader) return build;
  return {
    ...build,
    routes: {
      ...build.routes,
      root: {
        ...root,
        module: {
          ...root.module,
          loader: loadingNewBuild(loader, build.assets.version, requestContextKeyOf(build)),
        },
      },
    },
  };
}
