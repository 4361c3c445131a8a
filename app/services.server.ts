import type { Logger } from "pino";
import type { Config } from "./config.server";
import { createSealedCookie, type SealedCookie } from "./lib/sealed-cookie.server";
import { flashSchema } from "./lib/flash.server";
import type { Flash } from "./lib/flash";

/** Long-lived objects built once at start by server.ts and handed to every loader and action. */
export interface Services {
  config: Config;
  logger: Logger;
  cookies: {
    flash: SealedCookie<Flash>;
  };
  /** Checks run by GET /readyz; each resolves when its dependency answers. */
  readinessChecks: Record<string, () => Promise<void>>;
  /** Run in order on shutdown. */
  closers: Array<() => Promise<void> | void>;
}

/** What each request adds to the services. */
export interface RequestContext extends Services {
  cspNonce: string;
  requestId: string;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}

export function createServices(config: Config, logger: Logger): Services {
  const secure = config.isProduction;
  return {
    config,
    logger,
    cookies: {
      flash: createSealedCookie({
        name: "flash",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: 60,
        schema: flashSchema,
      }),
    },
    readinessChecks: {},
    closers: [],
  };
}
