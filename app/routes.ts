import type { RouteConfig } from "@react-router/dev/routes";
import { flatRoutes } from "@react-router/fs-routes";

// The route files of app/routes/, named as Remix v2 named them; tests and server-only modules
// living beside them are not routes.
export default flatRoutes({
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.server.*"],
}) satisfies RouteConfig;
