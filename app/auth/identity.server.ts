import type { Logger } from "pino";
import type { Config } from "~/config.server";
import {
  createCognitoClient,
  type CognitoClient,
  type CognitoClientOptions,
  type CognitoTarget,
} from "./cognito.server";
import type { EmbeddedCognito } from "./emulator/emulator.server";
import { Outbox } from "./emulator/outbox.server";
import { RateLimiter, type RateLimitRule } from "~/lib/rate-limit";
import type { PasswordPolicy } from "./schemas";
import { OAUTH_CALLBACK_PATH, type HostedUi } from "./oauth.server";

/** Everything the auth routes need from the identity service, built once at start. */
export interface IdentityService {
  mode: Config["identityMode"];
  client: CognitoClient;
  passwordPolicy: PasswordPolicy;
  /** The development outbox: only with the embedded emulator and outside production. */
  outbox: Outbox | null;
  /** The emulator's address and pool (for the outbox page and tests); null with a real pool. */
  embeddedTarget(): Promise<CognitoTarget | null>;
  rateLimiter: RateLimiter;
  rateLimits: {
    perIp: RateLimitRule;
    perUsername: RateLimitRule;
    /** Codes sent by e-mail or SMS to one address (password resets, resent codes). */
    messagesPerAccount: RateLimitRule;
  };
  /**
   * Cognito's hosted OAuth endpoints for social sign-in (decision 0069): the pool's domain, or
   * the emulator's stand-in; null when SOCIAL_PROVIDERS is empty.
   */
  hostedUi(): Promise<HostedUi | null>;
  /** The hosted domain's origin once known (the CSP's form-action for sign-out), or null. */
  hostedOrigin(): string | null;
  /** Resolves when the service answers (GET /readyz). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function passwordPolicyFrom(config: Config): PasswordPolicy {
  return {
    minLength: config.COGNITO_PASSWORD_MIN_LENGTH,
    requireLowercase: config.COGNITO_PASSWORD_REQUIRE_LOWERCASE,
    requireUppercase: config.COGNITO_PASSWORD_REQUIRE_UPPERCASE,
    requireNumbers: config.COGNITO_PASSWORD_REQUIRE_NUMBERS,
    requireSymbols: config.COGNITO_PASSWORD_REQUIRE_SYMBOLS,
  };
}

/**
 * The embedded emulator as a process reaches it: started by this process, or by the cluster's
 * primary (its address handed over, its codes relayed into `outbox`).
 */
export interface EmbeddedIdentity {
  emulator: Promise<EmbeddedCognito>;
  outbox: Outbox;
}

/** Starts cognito-local (and the hosted stand-in with social sign-in) in this process. */
export function startEmbeddedIdentity(
  config: Config,
  logger: Logger,
  outbox = new Outbox(),
): EmbeddedIdentity {
  if (config.isProduction) {
    // Only with ALLOW_EMBEDDED_IDENTITY (config.server.ts refuses otherwise).
    logger.warn(
      "test environment: running the embedded identity emulator (ALLOW_EMBEDDED_IDENTITY), not for real customers",
    );
  }
  // Started in the background so that the first page answers at once; identity calls wait for it.
  // Loaded only here: the emulator and its packages are development dependencies, absent from a
  // production install (loadConfig refuses the embedded mode there, in one line).
  const emulator = import("./emulator/emulator.server").then(({ startEmbeddedCognito }) =>
    startEmbeddedCognito({
      dataDir: config.dataDir,
      logger,
      outbox,
      passwordPolicy: passwordPolicyFrom(config),
      // The hosted sign-in stand-in, only when social sign-in is configured (off by default).
      hostedUi:
        config.SOCIAL_PROVIDERS.length > 0
          ? {
              callbackUrls: [`${config.publicOrigin}${OAUTH_CALLBACK_PATH}`],
              logoutUrls: [`${config.publicOrigin}/`],
            }
          : undefined,
      // Passkeys are made for PUBLIC_BASE_URL's host name (decision 0122), from the site's origins.
      relyingParty: config.PASSKEYS_ENABLED
        ? {
            id: new URL(config.publicOrigin).hostname,
            name: "Conecta Móvil",
            origins: config.allowedOrigins,
          }
        : undefined,
    }),
  );
  return { emulator, outbox };
}

export function createIdentity(
  config: Config,
  logger: Logger,
  rateLimiter: RateLimiter,
  /** The primary's emulator when clustered; otherwise this process starts its own. */
  embedded?: EmbeddedIdentity,
  /** Told of every call to the identity service (the server's metrics). */
  onCall?: CognitoClientOptions["onCall"],
): IdentityService {
  const passwordPolicy = passwordPolicyFrom(config);
  const windowMs = config.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000;
  const common = {
    passwordPolicy,
    rateLimiter,
    rateLimits: {
      perIp: { limit: config.AUTH_RATE_LIMIT_PER_IP, windowMs },
      perUsername: { limit: config.AUTH_RATE_LIMIT_PER_USERNAME, windowMs },
      messagesPerAccount: { limit: config.AUTH_RATE_LIMIT_MESSAGES_PER_ACCOUNT, windowMs },
    },
  };

  if (config.identityMode === "cognito") {
    const target: CognitoTarget = {
      endpoint:
        config.COGNITO_ENDPOINT ?? `https://cognito-idp.${config.COGNITO_REGION}.amazonaws.com/`,
      userPoolId: config.COGNITO_USER_POOL_ID!,
      clientId: config.COGNITO_CLIENT_ID!,
    };
    return {
      ...common,
      mode: "cognito",
      outbox: null,
      client: createCognitoClient({
        target: async () => target,
        authFlow: config.cognitoAuthFlow,
        timeoutMs: config.COGNITO_TIMEOUT_MS,
        logger,
        onCall,
      }),
      embeddedTarget: async () => null,
      hostedUi: async () =>
        config.cognitoDomain ? { domain: config.cognitoDomain, clientId: target.clientId } : null,
      hostedOrigin: () => config.cognitoDomain,
      async ready() {
        // The pool's public keys: an unauthenticated GET that proves Cognito and the pool answer.
        const url = new URL(`${target.userPoolId}/.well-known/jwks.json`, target.endpoint);
        const response = await fetch(url, {
          signal: AbortSignal.timeout(config.COGNITO_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`identity service answered ${response.status}`);
      },
      async close() {},
    };
  }

  const { emulator, outbox } = embedded ?? startEmbeddedIdentity(config, logger);
  let hostedOrigin: string | null = null;
  void emulator.then(
    (started) => (hostedOrigin = started.hostedOrigin),
    () => undefined,
  );
  emulator.catch((error: unknown) =>
    logger.error({ err: error }, "the embedded identity emulator did not start"),
  );
  return {
    ...common,
    mode: "embedded",
    outbox: config.isProduction ? null : outbox,
    client: createCognitoClient({
      target: async () => (await emulator).target,
      authFlow: config.cognitoAuthFlow,
      timeoutMs: config.COGNITO_TIMEOUT_MS,
      logger,
      onCall,
    }),
    embeddedTarget: async () => (await emulator).target,
    async hostedUi() {
      const started = await emulator;
      return started.hostedOrigin
        ? { domain: started.hostedOrigin, clientId: started.target.clientId }
        : null;
    },
    hostedOrigin: () => hostedOrigin,
    async ready() {
      const { target } = await emulator;
      const response = await fetch(new URL("health", target.endpoint));
      if (!response.ok) throw new Error(`identity emulator answered ${response.status}`);
    },
    async close() {
      await (await emulator.catch(() => null))?.close();
    },
  };
}
