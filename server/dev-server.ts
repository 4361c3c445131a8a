import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";

/**
 * Vite in middleware mode for `npm run dev` (`tsx server.ts --dev`): it serves the browser's
 * modules with hot updates, and compiles the server build again when its sources change. Vite is a
 * dev dependency: imported only here, only then.
 */
export async function startDevServer(): Promise<{
  middlewares: RequestHandler;
  loadBuild: () => Promise<ServerBuild>;
}> {
  const vite = await import("vite");
  const server = await vite.createServer({ server: { middlewareMode: true } });
  return {
    middlewares: server.middlewares as unknown as RequestHandler,
    loadBuild: async () =>
      (await server.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild,
  };
}
