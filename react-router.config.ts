import type { Config } from "@react-router/dev/config";

// Remix v2's future flags (v3_fetcherPersist, v3_relativeSplatPath, v3_throwAbortReason,
// v3_singleFetch, v3_lazyRouteDiscovery) and React Router 7's v8_* flags are React Router 8's ways,
// its only ones (decision 0132): loaders receive a RouterContextProvider (our RequestContext under
// lib/router-context.server.ts's key) and the request as it came (the page's address is `url`).
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
} satisfies Config;
