import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The storefront's build (react-router.config.ts): the browser's bundles in build/client, the
// server build in build/server. Tailwind runs as a PostCSS plugin (postcss.config.js). Vitest has
// its own configuration (vitest.config.ts), without the framework's plugin.
export default defineConfig({
  plugins: [reactRouter()],
  resolve: { tsconfigPaths: true },
});
