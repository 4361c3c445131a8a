/// <reference types="vite/client" />

// What React Router's client runtime puts on the page (its manifest, the loaded route modules).
declare global {
  interface Window {
    __reactRouterManifest: { version: string };
    __reactRouterRouteModules: Record<string, { handle?: unknown } | undefined>;
  }
}

export {};
