import type { Logger } from "pino";
import { createIdentity, type IdentityService } from "./auth/identity.server";
import {
  PENDING_MAX_AGE_SECONDS,
  SESSION_MAX_AGE_SECONDS,
  pendingSignInSchema,
  sessionTokensSchema,
  type PendingSignIn,
} from "./auth/session.server";
import type { SessionTokens } from "./auth/tokens";
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
    /** The signed-in customer's Cognito tokens (chunked: real tokens exceed one cookie). */
    authSession: SealedCookie<SessionTokens>;
    /** A sign-in waiting for its next step (180 s). */
    authPending: SealedCookie<PendingSignIn>;
  };
  /** Amazon Cognito, or the embedded emulator; rate limits of the auth forms. */
  identity: IdentityService;
  /** Checks run by GET /readyz; each resolves when its dependency answers. */
  readinessChecks: Record<string, () => Promise<void>>;
  /** Run in order on shutdown. */
  closers: Array<() => Promise<void> | void>;
}

/** What each request adds to the services. */
export interface RequestContext extends Services {
  cspNonce: string;
  requestId: string;
  /** The client's address (per-IP rate limits); honours X-Forwarded-For only with TRUST_PROXY. */
  clientIp: string;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}

export function createServices(config: Config, logger: Logger): Services {
  const secure = config.isProduction;
  const identity = createIdentity(config, logger);
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
      authSession: createSealedCookie({
        name: "auth_session",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
        schema: sessionTokensSchema,
      }),
      authPending: createSealedCookie({
        name: "auth_pending",
        secrets: config.sessionSecrets,
        secure,
        maxAgeSeconds: PENDING_MAX_AGE_SECONDS,
        schema: pendingSignInSchema,
      }),
    },
    identity,
    readinessChecks: { identity: () => identity.ready() },
    closers: [() => identity.close()],
  };
}
