import type { Config } from "@react-router/dev/config";

// Remix v2's future flags (v3_fetcherPersist, v3_relativeSplatPath, v3_throwAbortReason,
// v3_singleFetch, v3_lazyRouteDiscovery) are React Router 7's defaults.
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
  future: {
    // React Router 8's only way (decision 0132): loaders and actions get a RouterContextProvider,
    // which carries this request's RequestContext (lib/request-context.server.ts).
    v8_middleware: true,
  },
} satisfies Config;
