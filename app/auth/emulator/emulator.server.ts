import { randomBytes, randomUUID, sign } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Logger } from "pino";
import type { CognitoTarget } from "../cognito.server";
import type { PasswordPolicy } from "../schemas";
import {
  createSerialDataStoreFactory,
  type StormDatabase,
  type StormDatabaseClass,
} from "./store.server";
import { startHostedUi, type HostedUiOptions, type HostedUiTokenGenerator } from "./hosted.server";
import { decodeJwtPayload } from "../tokens";
import type { Outbox } from "./outbox.server";
import { generateTotpSecret, matchTotp } from "./totp.server";
import { startDeviceSrp, type DeviceSrpRound } from "./device-srp.server";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";

/**
 * The embedded identity service: cognito-local, started in-process on a loopback port when no
 * user pool is configured. It is wired here from cognito-local's parts rather than through its
 * `createDefaultServer`, which resolves `.cognito` against the working directory and loads the
 * AWS SDK v2 (a third of a second and a deprecation warning) only for Lambda triggers and KMS,
 * neither of which the storefront uses.
 *
 * Where cognito-local falls short of real Cognito in ways a customer would meet, it is taught
 * here: confirming sign-up verifies the email and, with SignUp's session, signs the customer in
 * (USER_AUTH), codes can be resent, an authenticator app (TOTP) can be associated, verified,
 * preferred and answered at sign-in, and ID tokens carry Cognito's `email_verified` and
 * `identities` (`withCognitoIdClaims`).
 */

/** The site passkeys are made for (decision 0122): PUBLIC_BASE_URL's host, and its origins. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export interface EmbeddedCognito {
  target: CognitoTarget;
  /** The hosted sign-in stand-in's origin (hosted.server.ts), or null when not started. */
  hostedOrigin: string | null;
  close(): Promise<void>;
}

// The parts of cognito-local used here, typed by what this module relies on.
interface EmulatorContext {
  logger: unknown;
}
type Route = (ctx: EmulatorContext, request: Record<string, unknown>) => Promise<unknown>;
type Router = (target: string) => Route;
interface EmulatorUser {
  Username: string;
  Attributes: Array<{ Name: string; Value?: string }>;
  UserStatus?: string;
  ConfirmationCode?: string;
  UserMFASettingList?: string[];
  PreferredMfaSetting?: string;
  [field: string]: unknown;
}
interface EmulatorUserPool {
  options: { Id: string };
  getUserByUsername(ctx: EmulatorContext, username: string): Promise<EmulatorUser | null>;
  saveUser(ctx: EmulatorContext, user: EmulatorUser): Promise<void>;
  listUserGroupMembership(ctx: EmulatorContext, user: EmulatorUser): Promise<string[]>;
  storeRefreshToken(ctx: EmulatorContext, token: string, user: EmulatorUser): Promise<void>;
}
interface EmulatorTokenGenerator {
  generate(
    ctx: EmulatorContext,
    user: EmulatorUser,
    groups: string[],
    client: unknown,
    clientMetadata: undefined,
    source: "Authentication",
  ): Promise<{ AccessToken: string; IdToken: string; RefreshToken: string }>;
}
interface EmulatorCognito {
  getUserPoolForClientId(ctx: EmulatorContext, clientId: string): Promise<EmulatorUserPool>;
  getAppClient(ctx: EmulatorContext, clientId: string): Promise<unknown>;
}
type EmulatorErrorClass = new (message?: string) => Error;

interface EmulatorModules {
  createServer: (
    router: Router,
    logger: unknown,
    options: { development: boolean },
  ) => { start(options: { port: number; hostname: string }): Promise<Server> };
  Router: (services: Record<string, unknown>) => Router;
  DefaultConfig: Record<string, unknown> & { UserPoolDefaults: Record<string, unknown> };
  DateClock: new () => unknown;
  CognitoServiceFactoryImpl: new (...args: unknown[]) => {
    create(ctx: EmulatorContext, defaults: unknown): Promise<EmulatorCognito>;
  };
  UserPoolServiceFactoryImpl: new (...args: unknown[]) => unknown;
  StormDBDataStore: new (database: StormDatabase) => unknown;
  StormDB: StormDatabaseClass;
  JwtTokenGenerator: new (...args: unknown[]) => unknown;
  /** The private key cognito-local signs its tokens with (its JWKS publishes the public one). */
  signingKeyPem: string;
  otp: () => string;
  errors: {
    CognitoError: new (code: string, message: string) => Error;
    InvalidParameterError: EmulatorErrorClass;
    NotAuthorizedError: EmulatorErrorClass;
    UserNotFoundError: EmulatorErrorClass;
    CodeMismatchError: EmulatorErrorClass;
  };
}

async function loadModules(): Promise<EmulatorModules> {
  // cognito-local is CommonJS with annotated named exports, which Node's ESM loader exposes.
  // Literal paths keep the bundlers' import analysis happy.
  type Exports = Record<string, unknown>;
  const exportsOf = (module: unknown) => module as Exports;
  const [server, router, config, services, cognitoService, userPoolService, storm, stormDb] = (
    await Promise.all([
      import("cognito-local/lib/server/server.js"),
      import("cognito-local/lib/server/Router.js"),
      import("cognito-local/lib/server/config.js"),
      import("cognito-local/lib/services/clock.js"),
      import("cognito-local/lib/services/cognitoService.js"),
      import("cognito-local/lib/services/userPoolService.js"),
      import("cognito-local/lib/services/dataStore/stormDb.js"),
      import("stormdb"),
    ])
  ).map(exportsOf);
  const [tokenGenerator, otp, errors] = (
    await Promise.all([
      import("cognito-local/lib/services/tokenGenerator.js"),
      import("cognito-local/lib/services/otp.js"),
      import("cognito-local/lib/errors.js"),
    ])
  ).map(exportsOf);
  return {
    createServer: server.createServer,
    Router: router.Router,
    DefaultConfig: config.DefaultConfig,
    DateClock: services.DateClock,
    CognitoServiceFactoryImpl: cognitoService.CognitoServiceFactoryImpl,
    UserPoolServiceFactoryImpl: userPoolService.UserPoolServiceFactoryImpl,
    StormDBDataStore: storm.StormDBDataStore,
    StormDB: stormDb.default,
    JwtTokenGenerator: tokenGenerator.JwtTokenGenerator,
    signingKeyPem: (
      createRequire(import.meta.url)("cognito-local/lib/keys/cognitoLocal.private.json") as {
        pem: string;
      }
    ).pem,
    otp: otp.otp,
    errors,
  } as unknown as EmulatorModules;
}

interface PoolState {
  userPoolId: string;
  clientId: string;
}

const POOL_NAME = "conecta-movil";
const CLIENT_NAME = "storefront";
/** How long the emulator keeps a sign-in waiting for its authenticator code (Cognito: 3 min). */
const MFA_SESSION_MS = 180_000;
/** How long SignUp's and ConfirmSignUp's sessions can sign the customer in (Cognito: 3 min). */
const SIGN_UP_SESSION_MS = 180_000;

const attributeValue = (user: EmulatorUser, name: string) =>
  user.Attributes.find((attribute) => attribute.Name === name)?.Value;

function withAttribute(user: EmulatorUser, name: string, value: string): EmulatorUser {
  return {
    ...user,
    Attributes: [
      ...user.Attributes.filter((attribute) => attribute.Name !== name),
      { Name: name, Value: value },
    ],
  };
}

/**
 * cognito-local's ID tokens differ from Cognito's in two claims the store reads (decision 0081):
 * `email_verified` is `Boolean(attribute)`, so "false" reads as true, and a federated user's
 * `identities` are left out. The ID token is given Cognito's two claims — true only for "true",
 * and the providers parsed from the `identities` attribute — and signed again with
 * cognito-local's own key, so it still verifies against the emulator's published key.
 */
export function withCognitoIdClaims(
  generator: EmulatorTokenGenerator,
  signingKeyPem: string,
): EmulatorTokenGenerator {
  return {
    async generate(ctx, user, ...rest) {
      const tokens = await generator.generate(ctx, user, ...rest);
      const [header, payload] = tokens.IdToken.split(".");
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<
        string,
        unknown
      >;
      claims.email_verified = attributeValue(user, "email_verified") === "true";
      const identities = attributeValue(user, "identities");
      if (identities) {
        try {
          claims.identities = JSON.parse(identities) as unknown;
        } catch {
          delete claims.identities;
        }
      }
      const signed = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
      const signature = sign("sha256", Buffer.from(signed), signingKeyPem).toString("base64url");
      return { ...tokens, IdToken: `${signed}.${signature}` };
    },
  };
}

export async function startEmbeddedCognito(options: {
  dataDir: string;
  logger: Logger;
  outbox: Outbox;
  passwordPolicy: PasswordPolicy;
  /** Serve Cognito's hosted OAuth endpoints too (social sign-in), for these app addresses. */
  hostedUi?: HostedUiOptions;
  /** Passkeys' relying party; without it the WebAuthn operations answer WebAuthnNotEnabled. */
  relyingParty?: RelyingParty;
}): Promise<EmbeddedCognito> {
  const started = Date.now();
  const modules = await loadModules();
  const baseDir = path.join(options.dataDir, "cognito-local");
  const dbDir = path.join(baseDir, "db");
  mkdirSync(dbDir, { recursive: true });

  // cognito-local logs every refused request (a wrong password, a bad code) as a warning and
  // user records, passwords included, at debug: keep only its errors.
  const emulatorLogger = options.logger.child({ component: "cognito-local" }, { level: "error" });
  const ctx: EmulatorContext = { logger: emulatorLogger };

  const config = {
    ...modules.DefaultConfig,
    UserPoolDefaults: { UsernameAttributes: ["email"] },
    TokenConfig: { IssuerDomain: "http://127.0.0.1" },
  };
  const clock = new modules.DateClock();
  const dataStoreFactory = createSerialDataStoreFactory({
    directory: dbDir,
    StormDB: modules.StormDB,
    wrap: (database) => new modules.StormDBDataStore(database),
  });
  const cognito = await new modules.CognitoServiceFactoryImpl(
    dbDir,
    clock,
    dataStoreFactory,
    new modules.UserPoolServiceFactoryImpl(clock, dataStoreFactory),
  ).create(ctx, config.UserPoolDefaults);
  // No Lambda triggers are configured, so none is ever invoked.
  const triggers = { enabled: () => false };

  const messages = {
    async deliver(
      _ctx: EmulatorContext,
      source: string,
      _clientId: string | null,
      _userPoolId: string,
      _user: EmulatorUser,
      code: string,
      _clientMetadata: unknown,
      delivery: { DeliveryMedium: "EMAIL" | "SMS"; Destination: string },
    ) {
      const entry = options.outbox.add({
        to: delivery.Destination,
        medium: delivery.DeliveryMedium,
        purpose: source,
        code,
      });
      // Decision 0008: a code opens an account and an address is personal data; neither is
      // logged. Outside production the outbox page shows them to the developer.
      options.logger.info(
        { purpose: source, medium: delivery.DeliveryMedium, outboxId: entry.id },
        source === "AdminCreateUser"
          ? "identity emulator sent a temporary password (see /dev/outbox)"
          : "identity emulator sent a code (see /dev/outbox)",
      );
    },
  };

  const tokenGenerator = withCognitoIdClaims(
    new modules.JwtTokenGenerator(clock, triggers, config.TokenConfig) as EmulatorTokenGenerator,
    modules.signingKeyPem,
  );
  const services = {
    clock,
    cognito,
    config,
    messages,
    otp: modules.otp,
    triggers,
    tokenGenerator,
  };
  const baseRouter = modules.Router(services);
  const router = extendRouter(baseRouter, {
    modules,
    cognito,
    messages,
    tokenGenerator,
    ctx,
    relyingParty: options.relyingParty,
  });

  const state = await ensurePool(baseDir, dbDir, router, cognito, ctx, options.passwordPolicy);
  // Open the pool before the first customer does: a broken file stops the start, loudly.
  await cognito.getUserPoolForClientId(ctx, state.clientId);

  const httpServer = await modules
    .createServer(router, emulatorLogger, { development: false })
    .start({ port: 0, hostname: "127.0.0.1" });
  const { port } = httpServer.address() as AddressInfo;
  const hosted = options.hostedUi
    ? await startHostedUi({
        ...options.hostedUi,
        cognito,
        tokenGenerator: services.tokenGenerator as HostedUiTokenGenerator,
        ctx,
        clientId: state.clientId,
        logger: options.logger,
      })
    : null;
  options.logger.info(
    {
      endpoint: `http://127.0.0.1:${port}/`,
      userPoolId: state.userPoolId,
      ms: Date.now() - started,
    },
    "embedded identity emulator (cognito-local) started",
  );

  return {
    target: { endpoint: `http://127.0.0.1:${port}/`, ...state },
    hostedOrigin: hosted?.origin ?? null,
    close: async () => {
      await hosted?.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}

/** Creates the pool and its app client on first start; afterwards reuses them. */
async function ensurePool(
  baseDir: string,
  dbDir: string,
  router: Router,
  cognito: EmulatorCognito,
  ctx: EmulatorContext,
  policy: PasswordPolicy,
): Promise<PoolState> {
  const stateFile = path.join(baseDir, "embedded-pool.json");
  if (existsSync(stateFile)) {
    try {
      const saved = JSON.parse(readFileSync(stateFile, "utf8")) as PoolState;
      if (
        existsSync(path.join(dbDir, `${saved.userPoolId}.json`)) &&
        (await cognito.getAppClient(ctx, saved.clientId))
      ) {
        return saved;
      }
    } catch {
      // Unreadable state: create a new pool below.
    }
  }
  const pool = (await router("CreateUserPool")(ctx, {
    PoolName: POOL_NAME,
    UsernameAttributes: ["email"],
    AutoVerifiedAttributes: ["email"],
    MfaConfiguration: "OPTIONAL",
    Policies: {
      PasswordPolicy: {
        MinimumLength: policy.minLength,
        RequireLowercase: policy.requireLowercase,
        RequireUppercase: policy.requireUppercase,
        RequireNumbers: policy.requireNumbers,
        RequireSymbols: policy.requireSymbols,
        TemporaryPasswordValidityDays: 7,
      },
    },
  })) as { UserPool: { Id: string } };
  const client = (await router("CreateUserPoolClient")(ctx, {
    UserPoolId: pool.UserPool.Id,
    ClientName: CLIENT_NAME,
    ExplicitAuthFlows: [
      "ALLOW_USER_PASSWORD_AUTH",
      "ALLOW_USER_SRP_AUTH",
      "ALLOW_REFRESH_TOKEN_AUTH",
    ],
    // Real Cognito's defaults: one-hour access and id tokens, 30-day refresh token.
    AccessTokenValidity: 60,
    IdTokenValidity: 60,
    RefreshTokenValidity: 30,
    TokenValidityUnits: { AccessToken: "minutes", IdToken: "minutes", RefreshToken: "days" },
    EnableTokenRevocation: true,
    PreventUserExistenceErrors: "ENABLED",
  })) as { UserPoolClient: { ClientId: string } };
  const state = { userPoolId: pool.UserPool.Id, clientId: client.UserPoolClient.ClientId };
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return state;
}

/** Adds the operations and behaviours real Cognito has and cognito-local lacks. */
function extendRouter(
  base: Router,
  deps: {
    modules: EmulatorModules;
    cognito: EmulatorCognito;
    messages: { deliver: (...args: never[]) => Promise<void> };
    tokenGenerator: EmulatorTokenGenerator;
    ctx: EmulatorContext;
    relyingParty?: RelyingParty;
  },
): Router {
  const { errors, otp } = deps.modules;
  const cognitoError = (code: string, message: string) => new errors.CognitoError(code, message);
  /** USER_AUTH's sessions: a first-factor choice, or a passkey's challenge, for 3 minutes. */
  const userAuthSessions = new Map<
    string,
    { username: string; clientId: string; challenge?: string; expiresAt: number }
  >();
  /** DEVICE_SRP_AUTH's sessions: the tokens a remembered device's proof releases. */
  const deviceSessions = new Map<
    string,
    {
      username: string;
      result: Record<string, unknown>;
      deviceKey?: string;
      round?: DeviceSrpRound;
      expiresAt: number;
    }
  >();

  function newSession<T extends { expiresAt: number }>(store: Map<string, T>, value: T) {
    const now = Date.now();
    for (const [key, entry] of store) if (entry.expiresAt < now) store.delete(key);
    const session = randomBytes(96).toString("base64url");
    store.set(session, value);
    return session;
  }

  function liveSession<T extends { expiresAt: number }>(store: Map<string, T>, session: unknown) {
    const found = typeof session === "string" ? store.get(session) : undefined;
    if (!found || found.expiresAt < Date.now()) {
      throw new errors.NotAuthorizedError("Invalid session for the user, session is expired.");
    }
    return found;
  }

  async function issueTokens(ctx: EmulatorContext, clientId: string, user: EmulatorUser) {
    const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
    const client = await deps.cognito.getAppClient(ctx, clientId);
    const groups = await pool.listUserGroupMembership(ctx, user);
    const tokens = await deps.tokenGenerator.generate(
      ctx,
      user,
      groups,
      client,
      undefined,
      "Authentication",
    );
    await pool.storeRefreshToken(ctx, tokens.RefreshToken, user);
    return { ...tokens, ExpiresIn: 3600, TokenType: "Bearer" } as Record<string, unknown>;
  }

  // --- Devices (decision 0123): tracked at every sign-in, remembered when confirmed so. ---
  interface EmulatorDevice {
    DeviceKey: string;
    DeviceGroupKey: string;
    Confirmed: boolean;
    Remembered: boolean;
    Name?: string;
    PasswordVerifier?: string;
    Salt?: string;
    CreatedAt: number;
    LastModifiedAt: number;
    LastAuthenticatedAt?: number;
  }
  const devicesOf = (user: EmulatorUser) =>
    Array.isArray(user.Devices) ? (user.Devices as EmulatorDevice[]) : [];
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** Tokens from a sign-in without a device: a new device Cognito would track, unconfirmed. */
  async function withNewDevice(
    ctx: EmulatorContext,
    clientId: string,
    username: string,
    result: Record<string, unknown>,
  ) {
    const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
    const user = await pool.getUserByUsername(ctx, username);
    if (!user) return result;
    const device: EmulatorDevice = {
      DeviceKey: `us-west-2_${randomUUID()}`,
      DeviceGroupKey: `-${randomBytes(7).toString("base64url")}`,
      Confirmed: false,
      Remembered: false,
      CreatedAt: nowSeconds(),
      LastModifiedAt: nowSeconds(),
    };
    // Unconfirmed devices are forgotten after the five newest: every sign-in makes one.
    const unconfirmed = devicesOf(user)
      .filter((known) => !known.Confirmed)
      .slice(-4);
    await pool.saveUser(ctx, {
      ...user,
      Devices: [...devicesOf(user).filter((known) => known.Confirmed), ...unconfirmed, device],
    });
    return {
      ...result,
      NewDeviceMetadata: { DeviceKey: device.DeviceKey, DeviceGroupKey: device.DeviceGroupKey },
    };
  }

  /**
   * The password was right: a remembered device answers DEVICE_SRP_AUTH instead of the second
   * factor; a device Cognito does not know is refused as Cognito refuses it.
   */
  async function deviceStep(
    ctx: EmulatorContext,
    clientId: string,
    user: EmulatorUser,
    deviceKey: unknown,
    result: Record<string, unknown>,
  ) {
    if (typeof deviceKey !== "string" || !deviceKey) return null;
    const device = devicesOf(user).find((known) => known.DeviceKey === deviceKey);
    if (!device) throw cognitoError("ResourceNotFoundException", "Device does not exist.");
    if (!device.Confirmed || !device.Remembered) return null;
    void clientId;
    const session = newSession(deviceSessions, {
      username: user.Username,
      result,
      expiresAt: Date.now() + MFA_SESSION_MS,
    });
    return {
      ChallengeName: "DEVICE_SRP_AUTH",
      Session: session,
      ChallengeParameters: { USERNAME: user.Username, USER_ID_FOR_SRP: user.Username },
    };
  }

  async function updateDevice(
    ctx: EmulatorContext,
    accessToken: unknown,
    deviceKey: unknown,
    change: (device: EmulatorDevice) => EmulatorDevice | null,
  ) {
    const { pool, user } = await poolAndUserFromToken(ctx, accessToken);
    const devices = devicesOf(user);
    const device = devices.find((known) => known.DeviceKey === deviceKey);
    if (!device) throw cognitoError("ResourceNotFoundException", "Device does not exist.");
    const changed = change(device);
    await pool.saveUser(ctx, {
      ...user,
      Devices: devices.flatMap((known) =>
        known === device ? (changed ? [changed] : []) : [known],
      ),
    });
  }

  // --- Passkeys (decision 0122), verified with @simplewebauthn/server. ---
  interface EmulatorPasskey {
    CredentialId: string;
    PublicKey: string;
    Counter: number;
    Transports: string[];
    AuthenticatorAttachment?: string;
    FriendlyCredentialName: string;
    RelyingPartyId: string;
    CreatedAt: number;
  }
  const passkeysOf = (user: EmulatorUser) =>
    Array.isArray(user.WebAuthnCredentials) ? (user.WebAuthnCredentials as EmulatorPasskey[]) : [];
  function relyingParty() {
    if (!deps.relyingParty) {
      throw cognitoError("WebAuthnNotEnabledException", "Passkeys are not enabled for this pool.");
    }
    return deps.relyingParty;
  }

  async function passkeyChallenge(username: string, clientId: string, user: EmulatorUser) {
    const rp = relyingParty();
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: passkeysOf(user).map((passkey) => ({
        id: passkey.CredentialId,
        transports: passkey.Transports,
      })),
      // A passkey is the whole sign-in, second factor included (decision 0138): the device must
      // verify its owner (PIN, fingerprint, face), as a pool with UserVerification "required".
      userVerification: "required",
    });
    const session = newSession(userAuthSessions, {
      username,
      clientId,
      challenge: options.challenge,
      expiresAt: Date.now() + MFA_SESSION_MS,
    });
    return {
      ChallengeName: "WEB_AUTHN",
      Session: session,
      ChallengeParameters: {
        USERNAME: username,
        CREDENTIAL_REQUEST_OPTIONS: JSON.stringify(options),
      },
    };
  }
  const pendingMfa = new Map<
    string,
    { username: string; result: Record<string, unknown>; expiresAt: number }
  >();
  /**
   * Real Cognito's sign-up sessions: SignUp's lets ConfirmSignUp answer a confirmed one, which
   * InitiateAuth (USER_AUTH) turns into tokens without the password, once, within 3 minutes.
   */
  const signUpSessions = new Map<
    string,
    { username: string; stage: "signed-up" | "confirmed"; expiresAt: number }
  >();

  function newSignUpSession(username: string, stage: "signed-up" | "confirmed") {
    const now = Date.now();
    for (const [key, value] of signUpSessions)
      if (value.expiresAt < now) signUpSessions.delete(key);
    const session = randomBytes(96).toString("base64url");
    signUpSessions.set(session, { username, stage, expiresAt: now + SIGN_UP_SESSION_MS });
    return session;
  }

  /** The live session of this stage for this user, used up by taking it. */
  function takeSignUpSession(session: unknown, stage: "signed-up" | "confirmed") {
    const found = typeof session === "string" ? signUpSessions.get(session) : undefined;
    if (!found || found.stage !== stage || found.expiresAt < Date.now()) return null;
    signUpSessions.delete(session as string);
    return found;
  }

  async function poolAndUserFromToken(ctx: EmulatorContext, accessToken: unknown) {
    const claims = typeof accessToken === "string" ? decodeJwtPayload(accessToken) : null;
    if (!claims || typeof claims.client_id !== "string" || typeof claims.sub !== "string") {
      throw new errors.NotAuthorizedError("Invalid Access Token");
    }
    const pool = await deps.cognito.getUserPoolForClientId(ctx, claims.client_id);
    const user = await pool.getUserByUsername(ctx, claims.sub);
    if (!user) throw new errors.UserNotFoundError();
    return { pool, user };
  }

  function totpEnabled(user: EmulatorUser) {
    return (user.UserMFASettingList ?? []).includes("SOFTWARE_TOKEN_MFA");
  }

  const extensions: Record<string, Route> = {
    /**
     * Not in cognito-local (decision 0134): every refresh token of the user is revoked, and the
     * access tokens issued before are refused from now on, as Cognito refuses them.
     */
    async GlobalSignOut(ctx, request) {
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      await pool.saveUser(ctx, { ...user, RefreshTokens: [], SignedOutAt: nowSeconds() });
      return {};
    },

    async SignUp(ctx, request) {
      const result = (await base("SignUp")(ctx, request)) as Record<string, unknown>;
      const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
      const user = await pool.getUserByUsername(ctx, String(request.Username));
      return user ? { ...result, Session: newSignUpSession(user.Username, "signed-up") } : result;
    },

    async ConfirmSignUp(ctx, request) {
      const result = (await base("ConfirmSignUp")(ctx, request)) as Record<string, unknown>;
      // Real Cognito marks an auto-verified email as verified once sign-up is confirmed.
      const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
      const user = await pool.getUserByUsername(ctx, String(request.Username));
      if (user && attributeValue(user, "email")) {
        await pool.saveUser(ctx, withAttribute(user, "email_verified", "true"));
      }
      const signedUp = request.Session ? takeSignUpSession(request.Session, "signed-up") : null;
      // An expired or foreign session still confirms the account; it just signs nobody in.
      if (!user || !signedUp || signedUp.username !== user.Username) return result;
      return { ...result, Session: newSignUpSession(user.Username, "confirmed") };
    },

    async ResendConfirmationCode(ctx, request) {
      const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
      const user = await pool.getUserByUsername(ctx, String(request.Username));
      if (!user) throw new errors.UserNotFoundError("Username/client id combination not found.");
      if (user.UserStatus !== "UNCONFIRMED") {
        throw new errors.InvalidParameterError("User is already confirmed.");
      }
      const email = attributeValue(user, "email");
      if (!email) throw new errors.InvalidParameterError("User has no email to send a code to");
      const code = otp();
      const delivery = {
        AttributeName: "email",
        DeliveryMedium: "EMAIL" as const,
        Destination: email,
      };
      await (deps.messages.deliver as (...args: unknown[]) => Promise<void>)(
        ctx,
        "ResendCode",
        request.ClientId,
        pool.options.Id,
        user,
        code,
        undefined,
        delivery,
      );
      await pool.saveUser(ctx, { ...user, ConfirmationCode: code });
      return { CodeDeliveryDetails: delivery };
    },

    async AssociateSoftwareToken(ctx, request) {
      if (!request.AccessToken) {
        // Only real Cognito issues MFA_SETUP at sign-in; the emulator never asks for it.
        throw new errors.InvalidParameterError(
          "The emulator associates tokens from an account only",
        );
      }
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const secret = generateTotpSecret();
      await pool.saveUser(ctx, { ...user, SoftwareTokenPendingSecret: secret });
      return { SecretCode: secret };
    },

    async VerifySoftwareToken(ctx, request) {
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const secret = user.SoftwareTokenPendingSecret;
      const step =
        typeof secret === "string"
          ? matchTotp(secret, String(request.UserCode ?? ""), Date.now())
          : null;
      if (step === null) {
        throw new errors.CognitoError(
          "EnableSoftwareTokenMFAException",
          "Code mismatch and fail enable Software Token MFA",
        );
      }
      await pool.saveUser(ctx, {
        ...user,
        SoftwareTokenSecret: secret,
        SoftwareTokenPendingSecret: undefined,
        SoftwareTokenUsedStep: step,
      });
      return { Status: "SUCCESS" };
    },

    async SetUserMFAPreference(ctx, request) {
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const settings = request.SoftwareTokenMfaSettings as
        { Enabled?: boolean; PreferredMfa?: boolean } | undefined;
      if (request.SMSMfaSettings || request.EmailMfaSettings) {
        const wantsOther = [request.SMSMfaSettings, request.EmailMfaSettings].some(
          (other) => (other as { Enabled?: boolean } | undefined)?.Enabled,
        );
        if (wantsOther) {
          throw new errors.InvalidParameterError("The emulator supports only authenticator apps");
        }
      }
      let list = (user.UserMFASettingList ?? []).filter((name) => name !== "SOFTWARE_TOKEN_MFA");
      let preferred = user.PreferredMfaSetting;
      if (settings?.Enabled) {
        if (typeof user.SoftwareTokenSecret !== "string") {
          throw new errors.InvalidParameterError("User has not verified software token mfa");
        }
        list = [...list, "SOFTWARE_TOKEN_MFA"];
        if (settings.PreferredMfa) preferred = "SOFTWARE_TOKEN_MFA";
      } else if (settings && preferred === "SOFTWARE_TOKEN_MFA") {
        preferred = undefined;
      }
      await pool.saveUser(ctx, {
        ...user,
        UserMFASettingList: list,
        PreferredMfaSetting: preferred,
      });
      return {};
    },

    async StartWebAuthnRegistration(ctx, request) {
      const rp = relyingParty();
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const email = attributeValue(user, "email") ?? user.Username;
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: email,
        userDisplayName: email,
        userID: Buffer.from(user.Username),
        attestationType: "none",
        excludeCredentials: passkeysOf(user).map((passkey) => ({
          id: passkey.CredentialId,
          transports: passkey.Transports,
        })),
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      });
      await pool.saveUser(ctx, {
        ...user,
        WebAuthnRegistration: { challenge: options.challenge, expiresAt: Date.now() + 300_000 },
      });
      return { CredentialCreationOptions: options };
    },

    async CompleteWebAuthnRegistration(ctx, request) {
      const rp = relyingParty();
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const started = user.WebAuthnRegistration as
        { challenge?: string; expiresAt?: number } | undefined;
      if (!started?.challenge || (started.expiresAt ?? 0) < Date.now()) {
        throw cognitoError("WebAuthnChallengeNotFoundException", "No registration to complete.");
      }
      const credential = request.Credential as Record<string, unknown> | undefined;
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: credential as never,
          expectedChallenge: started.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          requireUserVerification: true,
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : "";
        if (/rp ?id/i.test(reason)) {
          throw cognitoError(
            "WebAuthnRelyingPartyMismatchException",
            "The credential's relying party does not match the user pool's.",
          );
        }
        if (/origin/i.test(reason)) {
          throw cognitoError("WebAuthnOriginNotAllowedException", "Origin not allowed.");
        }
        if (/challenge/i.test(reason)) {
          throw cognitoError("WebAuthnChallengeNotFoundException", "Challenge does not match.");
        }
        throw new errors.InvalidParameterError("Invalid WebAuthn registration response.");
      }
      if (!verified.verified) {
        throw new errors.InvalidParameterError("Invalid WebAuthn registration response.");
      }
      const info = verified.registrationInfo;
      const passkey: EmulatorPasskey = {
        CredentialId: info.credential.id,
        PublicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        Counter: info.credential.counter,
        Transports: (info.credential.transports ?? []) as string[],
        AuthenticatorAttachment:
          typeof credential?.authenticatorAttachment === "string"
            ? credential.authenticatorAttachment
            : undefined,
        FriendlyCredentialName: `Llave de acceso ${passkeysOf(user).length + 1}`,
        RelyingPartyId: rp.id,
        CreatedAt: nowSeconds(),
      };
      await pool.saveUser(ctx, {
        ...user,
        WebAuthnRegistration: undefined,
        WebAuthnCredentials: [
          ...passkeysOf(user).filter((known) => known.CredentialId !== passkey.CredentialId),
          passkey,
        ],
      });
      return {};
    },

    async ListWebAuthnCredentials(ctx, request) {
      const { user } = await poolAndUserFromToken(ctx, request.AccessToken);
      return {
        Credentials: passkeysOf(user).map((passkey) => ({
          CredentialId: passkey.CredentialId,
          FriendlyCredentialName: passkey.FriendlyCredentialName,
          RelyingPartyId: passkey.RelyingPartyId,
          AuthenticatorAttachment: passkey.AuthenticatorAttachment,
          AuthenticatorTransports: passkey.Transports,
          CreatedAt: passkey.CreatedAt,
        })),
      };
    },

    async DeleteWebAuthnCredential(ctx, request) {
      const { pool, user } = await poolAndUserFromToken(ctx, request.AccessToken);
      const left = passkeysOf(user).filter((known) => known.CredentialId !== request.CredentialId);
      if (left.length === passkeysOf(user).length) {
        throw cognitoError("ResourceNotFoundException", "Credential not found.");
      }
      await pool.saveUser(ctx, { ...user, WebAuthnCredentials: left });
      return {};
    },

    async ConfirmDevice(ctx, request) {
      const config = request.DeviceSecretVerifierConfig as
        { PasswordVerifier?: string; Salt?: string } | undefined;
      if (!config?.PasswordVerifier || !config.Salt) {
        throw new errors.InvalidParameterError("DeviceSecretVerifierConfig is required");
      }
      await updateDevice(ctx, request.AccessToken, request.DeviceKey, (device) => ({
        ...device,
        Confirmed: true,
        Name: typeof request.DeviceName === "string" ? request.DeviceName : undefined,
        PasswordVerifier: config.PasswordVerifier,
        Salt: config.Salt,
        LastAuthenticatedAt: nowSeconds(),
        LastModifiedAt: nowSeconds(),
      }));
      // A pool whose devices are remembered "on the user's choice" asks the app to say so.
      return { UserConfirmationNecessary: true };
    },

    async UpdateDeviceStatus(ctx, request) {
      await updateDevice(ctx, request.AccessToken, request.DeviceKey, (device) => ({
        ...device,
        Remembered: request.DeviceRememberedStatus === "remembered",
        LastModifiedAt: nowSeconds(),
      }));
      return {};
    },

    async ListDevices(ctx, request) {
      const { user } = await poolAndUserFromToken(ctx, request.AccessToken);
      return {
        Devices: devicesOf(user)
          .filter((device) => device.Confirmed)
          .map((device) => ({
            DeviceKey: device.DeviceKey,
            DeviceAttributes: [
              { Name: "device_status", Value: "valid" },
              { Name: "device_name", Value: device.Name ?? "" },
              {
                Name: "dev:device_remembered_status",
                Value: device.Remembered ? "remembered" : "not_remembered",
              },
            ],
            DeviceCreateDate: device.CreatedAt,
            DeviceLastModifiedDate: device.LastModifiedAt,
            DeviceLastAuthenticatedDate: device.LastAuthenticatedAt,
          })),
      };
    },

    async ForgetDevice(ctx, request) {
      await updateDevice(ctx, request.AccessToken, request.DeviceKey, () => null);
      return {};
    },

    async InitiateAuth(ctx, request) {
      if (request.AuthFlow === "USER_AUTH" && !request.Session) {
        // Choice-based sign-in: the password, or a passkey when the account has one.
        const parameters = request.AuthParameters as
          { USERNAME?: string; PREFERRED_CHALLENGE?: string } | undefined;
        const clientId = String(request.ClientId);
        const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
        const user = await pool.getUserByUsername(ctx, String(parameters?.USERNAME ?? ""));
        if (!user) throw new errors.NotAuthorizedError("Incorrect username or password.");
        const hasPasskey = passkeysOf(user).length > 0 && Boolean(deps.relyingParty);
        if (parameters?.PREFERRED_CHALLENGE === "WEB_AUTHN" && hasPasskey) {
          return passkeyChallenge(user.Username, clientId, user);
        }
        const session = newSession(userAuthSessions, {
          username: user.Username,
          clientId,
          expiresAt: Date.now() + MFA_SESSION_MS,
        });
        return {
          ChallengeName: "SELECT_CHALLENGE",
          Session: session,
          ChallengeParameters: { USERNAME: user.Username },
          AvailableChallenges: ["PASSWORD", ...(hasPasskey ? ["WEB_AUTHN"] : [])],
        };
      }
      if (request.AuthFlow === "USER_AUTH") {
        const confirmed = takeSignUpSession(request.Session, "confirmed");
        const parameters = request.AuthParameters as { USERNAME?: string } | undefined;
        const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
        const user = await pool.getUserByUsername(ctx, String(parameters?.USERNAME ?? ""));
        if (!confirmed || !user || confirmed.username !== user.Username) {
          throw new errors.NotAuthorizedError("Invalid session for the user, session is expired.");
        }
        const client = await deps.cognito.getAppClient(ctx, String(request.ClientId));
        const groups = await pool.listUserGroupMembership(ctx, user);
        const tokens = await deps.tokenGenerator.generate(
          ctx,
          user,
          groups,
          client,
          undefined,
          "Authentication",
        );
        await pool.storeRefreshToken(ctx, tokens.RefreshToken, user);
        return {
          ChallengeParameters: {},
          AuthenticationResult: { ...tokens, ExpiresIn: 3600, TokenType: "Bearer" },
        };
      }
      const result = (await base("InitiateAuth")(ctx, request)) as Record<string, unknown>;
      if (request.AuthFlow !== "USER_PASSWORD_AUTH" || !result.AuthenticationResult) return result;
      const clientId = String(request.ClientId);
      const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
      const parameters = request.AuthParameters as
        { USERNAME?: string; DEVICE_KEY?: string } | undefined;
      const user = await pool.getUserByUsername(ctx, String(parameters?.USERNAME ?? ""));
      if (!user) return result;
      const tokens = result.AuthenticationResult as Record<string, unknown>;
      const byDevice = await deviceStep(ctx, clientId, user, parameters?.DEVICE_KEY, tokens);
      if (byDevice) return byDevice;
      if (!totpEnabled(user)) {
        return {
          ...result,
          AuthenticationResult: await withNewDevice(ctx, clientId, user.Username, tokens),
        };
      }
      const session = randomBytes(96).toString("base64url");
      pendingMfa.set(session, {
        username: user.Username,
        result: tokens,
        expiresAt: Date.now() + MFA_SESSION_MS,
      });
      return {
        ChallengeName: "SOFTWARE_TOKEN_MFA",
        Session: session,
        ChallengeParameters: { USER_ID_FOR_SRP: user.Username },
      };
    },

    async RespondToAuthChallenge(ctx, request) {
      const responses = (request.ChallengeResponses ?? {}) as Record<string, string>;
      const clientId = String(request.ClientId);
      if (request.ChallengeName === "SELECT_CHALLENGE") {
        const session = liveSession(userAuthSessions, request.Session);
        userAuthSessions.delete(String(request.Session));
        const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
        const user = await pool.getUserByUsername(ctx, session.username);
        if (!user) throw new errors.NotAuthorizedError("Incorrect username or password.");
        if (responses.ANSWER === "WEB_AUTHN" && passkeysOf(user).length) {
          return passkeyChallenge(user.Username, clientId, user);
        }
        if (responses.ANSWER === "PASSWORD") {
          return extensions.InitiateAuth(ctx, {
            AuthFlow: "USER_PASSWORD_AUTH",
            ClientId: clientId,
            AuthParameters: { USERNAME: user.Username, PASSWORD: responses.PASSWORD ?? "" },
          });
        }
        throw new errors.InvalidParameterError(`The emulator offers no ${responses.ANSWER}`);
      }
      if (request.ChallengeName === "WEB_AUTHN") {
        const session = liveSession(userAuthSessions, request.Session);
        userAuthSessions.delete(String(request.Session));
        const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
        const user = await pool.getUserByUsername(ctx, session.username);
        let answer: { id?: string } & Record<string, unknown>;
        try {
          answer = JSON.parse(responses.CREDENTIAL ?? "") as typeof answer;
        } catch {
          throw new errors.InvalidParameterError("CREDENTIAL is not a WebAuthn response");
        }
        const passkey = user && passkeysOf(user).find((known) => known.CredentialId === answer.id);
        if (!user || !passkey || !session.challenge) {
          throw new errors.NotAuthorizedError("Incorrect username or password.");
        }
        const rp = relyingParty();
        const verified = await verifyAuthenticationResponse({
          response: answer as never,
          expectedChallenge: session.challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          credential: {
            id: passkey.CredentialId,
            publicKey: Buffer.from(passkey.PublicKey, "base64url"),
            counter: passkey.Counter,
            transports: passkey.Transports as never,
          },
          // Without the user verified the passkey is one factor only: refused (decision 0138).
          requireUserVerification: true,
          // A signature counter that does not move forward (when either is non-zero) is a
          // cloned authenticator: @simplewebauthn refuses it against the counter stored here.
        }).catch(() => null);
        if (!verified?.verified) {
          throw new errors.NotAuthorizedError("Incorrect username or password.");
        }
        const counted: EmulatorUser = {
          ...user,
          WebAuthnCredentials: passkeysOf(user).map((known) =>
            known === passkey
              ? { ...known, Counter: verified.authenticationInfo.newCounter }
              : known,
          ),
        };
        await pool.saveUser(ctx, counted);
        // The tokens are stored with the user as just saved: the user read before the assertion
        // would write its old counter back with the refresh token.
        const tokens = await issueTokens(ctx, clientId, counted);
        return {
          ChallengeParameters: {},
          AuthenticationResult: await withNewDevice(ctx, clientId, user.Username, tokens),
        };
      }
      if (request.ChallengeName === "DEVICE_SRP_AUTH") {
        const session = liveSession(deviceSessions, request.Session);
        const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
        const user = await pool.getUserByUsername(ctx, session.username);
        const device = user && devicesOf(user).find((d) => d.DeviceKey === responses.DEVICE_KEY);
        if (!user || !device)
          throw cognitoError("ResourceNotFoundException", "Device does not exist.");
        const round =
          device.PasswordVerifier && device.Salt
            ? startDeviceSrp({
                passwordVerifier: device.PasswordVerifier,
                salt: device.Salt,
                deviceGroupKey: device.DeviceGroupKey,
                deviceKey: device.DeviceKey,
                srpA: responses.SRP_A ?? "",
              })
            : null;
        if (!round) throw new errors.NotAuthorizedError("Incorrect username or password.");
        deviceSessions.delete(String(request.Session));
        const next = newSession(deviceSessions, {
          ...session,
          deviceKey: device.DeviceKey,
          round,
          expiresAt: Date.now() + MFA_SESSION_MS,
        });
        return {
          ChallengeName: "DEVICE_PASSWORD_VERIFIER",
          Session: next,
          ChallengeParameters: {
            ...round.parameters,
            USERNAME: user.Username,
            DEVICE_KEY: device.DeviceKey,
          },
        };
      }
      if (request.ChallengeName === "DEVICE_PASSWORD_VERIFIER") {
        const session = liveSession(deviceSessions, request.Session);
        deviceSessions.delete(String(request.Session));
        if (
          !session.round ||
          session.deviceKey !== responses.DEVICE_KEY ||
          !session.round.verify(responses)
        ) {
          throw new errors.NotAuthorizedError("Incorrect username or password.");
        }
        const pool = await deps.cognito.getUserPoolForClientId(ctx, clientId);
        const user = await pool.getUserByUsername(ctx, session.username);
        if (user) {
          await pool.saveUser(ctx, {
            ...user,
            Devices: devicesOf(user).map((device) =>
              device.DeviceKey === session.deviceKey
                ? { ...device, LastAuthenticatedAt: nowSeconds() }
                : device,
            ),
          });
        }
        return { ChallengeParameters: {}, AuthenticationResult: session.result };
      }
      if (request.ChallengeName !== "SOFTWARE_TOKEN_MFA") {
        const result = (await base("RespondToAuthChallenge")(ctx, request)) as {
          AuthenticationResult?: { RefreshToken?: string };
        };
        // cognito-local forgets the refresh token it issues here (a new password set, for one),
        // so those sessions could never refresh; real Cognito refreshes them like any other.
        const refreshToken = result.AuthenticationResult?.RefreshToken;
        if (refreshToken && responses.USERNAME) {
          const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
          const user = await pool.getUserByUsername(ctx, responses.USERNAME);
          if (user) await pool.storeRefreshToken(ctx, refreshToken, user);
        }
        return result;
      }
      const now = Date.now();
      for (const [key, value] of pendingMfa) if (value.expiresAt < now) pendingMfa.delete(key);
      const pending = pendingMfa.get(String(request.Session ?? ""));
      if (!pending)
        throw new errors.NotAuthorizedError("Invalid session for the user, session is expired.");
      const pool = await deps.cognito.getUserPoolForClientId(ctx, String(request.ClientId));
      const user = await pool.getUserByUsername(ctx, pending.username);
      const secret = user?.SoftwareTokenSecret;
      const usedStep =
        typeof user?.SoftwareTokenUsedStep === "number" ? user.SoftwareTokenUsedStep : undefined;
      const step =
        user && typeof secret === "string"
          ? matchTotp(secret, responses?.SOFTWARE_TOKEN_MFA_CODE ?? "", now, { usedStep })
          : null;
      if (!user || step === null) throw new errors.CodeMismatchError();
      await pool.saveUser(ctx, { ...user, SoftwareTokenUsedStep: step });
      pendingMfa.delete(String(request.Session));
      return {
        ChallengeParameters: {},
        AuthenticationResult: await withNewDevice(
          ctx,
          String(request.ClientId),
          user.Username,
          pending.result,
        ),
      };
    },
  };

  /**
   * An access token issued before the user's last GlobalSignOut is refused, by any operation.
   * Token times are in whole seconds: one issued within the second of the sign-out is still taken
   * (a sign-in just after it must work; Cognito itself tells them apart). The store's own record
   * of the sign-out (decision 0134) ends those sessions in the app all the same.
   */
  async function refuseSignedOutToken(ctx: EmulatorContext, accessToken: unknown) {
    const claims = typeof accessToken === "string" ? decodeJwtPayload(accessToken) : null;
    if (!claims || typeof claims.client_id !== "string" || typeof claims.sub !== "string") return;
    const pool = await deps.cognito.getUserPoolForClientId(ctx, claims.client_id);
    const user = await pool.getUserByUsername(ctx, claims.sub);
    const signedOutAt = typeof user?.SignedOutAt === "number" ? user.SignedOutAt : null;
    if (signedOutAt !== null && typeof claims.iat === "number" && claims.iat < signedOutAt) {
      throw new errors.NotAuthorizedError("Access Token has been revoked");
    }
  }

  return (target) => {
    const route = extensions[target] ?? base(target);
    return async (ctx, request) => {
      if (request.AccessToken !== undefined) await refuseSignedOutToken(ctx, request.AccessToken);
      return route(ctx, request);
    };
  };
}
