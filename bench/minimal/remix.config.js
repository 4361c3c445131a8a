/**
 * The smallest Remix app served by the same server.ts: the floor the framework sets, measured by
 * `npm run bench` next to the storefront.
 */
/** @type {import('@remix-run/dev').AppConfig} */
export default {
  serverModuleFormat: "esm",
  postcss: false,
  tailwind: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
