/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*", "**/*.server.*"],
  serverModuleFormat: "esm",
  // Tailwind 4 runs as a PostCSS plugin (postcss.config.js); the compiler's built-in
  // Tailwind integration only understands Tailwind 3.
  tailwind: false,
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
