import { randomBytes } from "node:crypto";
import { redirect } from "react-router";
import * as z from "zod";
import type { CookieJar } from "~/lib/cookie-jar.server";
import { pageUrlOf } from "~/lib/data-requests";
import { setFlash } from "~/lib/flash.server";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import { isCognitoError } from "./cognito-error";
import { signInPathFor } from "./redirect";
import { revokeBrowserAccess } from "./browser-access.server";
import {
  customerFromTokens,
  measureClockDrift,
  refreshDue,
  mfaSettingsOf,
  type Customer,
  type MfaSettings,
  type SessionTokens,
} from "./tokens";
import type { RequestContext } from "~/context";

/** The session cookie lives as long as Cognito's default refresh token (30 days). */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** The spec's sign-in state expiry. */
export const PENDING_MAX_AGE_SECONDS = 180;
/** The spec's automatic sign-in window: a code confirmed later leads to the sign-in form. */
export const AUTO_SIGN_IN_WINDOW_SECONDS = 180;
/**
 * A sign-up waiting for its code outlives the automatic sign-in window, so a customer who finds
 * the code later is told why they must type their password, with their email filled in.
 */
export const SIGN_UP_PENDING_MAX_AGE_SECONDS = 900;
/** The pending cookie lives as long as its longest state; each state carries its own expiry. */
export const PENDING_COOKIE_MAX_AGE_SECONDS = Math.max(
  PENDING_MAX_AGE_SECONDS,
  SIGN_UP_PENDING_MAX_AGE_SECONDS,
);

export const sessionTokensSchema: z.ZodType<SessionTokens> = z.object({
  sessionId: z.string().min(16).max(64),
  accessToken: z.string().min(1),
  idToken: z.string().min(1),
  refreshToken: z.string().min(1),
  clockDrift: z.number(),
  signInDetails: z.object({ loginId: z.string(), authFlowType: z.string() }),
  authenticatedAt: z.number().optional(),
  mfa: z
    .object({
      enabled: z.array(z.string().max(32)).max(8),
      preferred: z.string().max(32).nullable(),
    })
    .optional(),
});

/** The signed-in customer's Cognito tokens (chunked: real tokens exceed one cookie). */
export const authSessionCookieSpec: SealedCookieSpec<SessionTokens> = {
  name: "auth_session",
  maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
  schema: sessionTokensSchema,
};

/**
 * The spec's stored sign-in state (username, challenge name, session, expiry), plus what the
 * next view needs to show: where the code went, which MFA types are offered, the new TOTP secret.
 */
export interface PendingSignIn {
  username: string;
  /** Cognito's own user name, which challenge responses must use. */
  userIdForSrp?: string;
  challengeName?: string;
  session?: string;
  parameters?: Record<string, string>;
  totpSecret?: string;
  delivery?: { destination: string; medium: string };
  redirectTo?: string;
  /**
   * The session Cognito returned from SignUp: confirming the code with it lets the customer in
   * without typing the password again, until `expiresAt` (epoch ms; the spec's 180 s).
   */
  autoSignIn?: { session: string; expiresAt: number };
  /** Epoch milliseconds. */
  expiresAt: number;
}

export const pendingSignInSchema: z.ZodType<PendingSignIn> = z.object({
  username: z.string(),
  userIdForSrp: z.string().optional(),
  challengeName: z.string().optional(),
  session: z.string().optional(),
  parameters: z.record(z.string(), z.string()).optional(),
  totpSecret: z.string().optional(),
  delivery: z.object({ destination: z.string(), medium: z.string() }).optional(),
  redirectTo: z.string().optional(),
  autoSignIn: z.object({ session: z.string(), expiresAt: z.number() }).optional(),
  expiresAt: z.number(),
});

/** A sign-in waiting for its next step (180 s; a sign-up waiting for its code, 15 minutes). */
export const authPendingCookieSpec: SealedCookieSpec<PendingSignIn> = {
  name: "auth_pending",
  maxAgeSeconds: PENDING_COOKIE_MAX_AGE_SECONDS,
  schema: pendingSignInSchema,
};

/** Who is signed in for this request, and the tokens that prove it. */
export interface Session {
  tokens: SessionTokens;
  customer: Customer;
}

function newSessionId(): string {
  return randomBytes(16).toString("base64url");
}

/** Tokens as they arrived from Cognito → the session to store. */
export function sessionFromAuthentication(
  result: { AccessToken: string; IdToken: string; RefreshToken?: string },
  signInDetails: SessionTokens["signInDetails"],
  previous?: Pick<SessionTokens, "refreshToken" | "sessionId" | "mfa" | "authenticatedAt">,
): SessionTokens | null {
  const refreshToken = result.RefreshToken ?? previous?.refreshToken;
  if (!refreshToken) return null;
  return {
    sessionId: previous?.sessionId ?? newSessionId(),
    accessToken: result.AccessToken,
    idToken: result.IdToken,
    refreshToken,
    clockDrift: measureClockDrift(result.AccessToken, Date.now()),
    signInDetails,
    // A refresh proves nothing new: the session keeps when its customer last authenticated.
    ...(previous
      ? previous.authenticatedAt === undefined
        ? {}
        : { authenticatedAt: previous.authenticatedAt }
      : { authenticatedAt: Date.now() }),
    ...(previous?.mfa ? { mfa: previous.mfa } : {}),
  };
}

/**
 * Fresh tokens read the customer's MFA settings again (spec: a refresh re-reads the user); when
 * Cognito cannot say, the ones kept before stay.
 */
async function withCurrentMfa(
  client: SessionServices["identity"]["client"],
  tokens: SessionTokens,
): Promise<SessionTokens> {
  try {
    return { ...tokens, mfa: mfaSettingsOf(await client.getUser(tokens.accessToken)) };
  } catch {
    return tokens;
  }
}

function sessionOf(tokens: SessionTokens | null): Session | null {
  const customer = tokens ? customerFromTokens(tokens) : null;
  return tokens && customer ? { tokens, customer } : null;
}

type SessionServices = Pick<RequestContext, "cookies" | "identity" | "logger">;

type RefreshOutcome = SessionTokens | "signed-out" | "unreachable";
/** Per identity client (one per server), refresh token → the refresh it started. */
const refreshesByClient = new WeakMap<object, Map<string, Promise<RefreshOutcome>>>();
/**
 * How long a refresh's outcome answers other requests that still carry the old tokens (sent
 * before the browser stored the new cookie).
 */
const REFRESH_SHARED_MS = 30_000;

/**
 * Refreshes tokens about to expire. A refusal signs the customer out; an unreachable service
 * keeps the session as it is, to try again on the next request. Requests of one customer that
 * arrive together share one refresh, so a rotating refresh token is used once.
 */
function refreshed(services: SessionServices, tokens: SessionTokens) {
  const { client } = services.identity;
  let recentRefreshes = refreshesByClient.get(client);
  if (!recentRefreshes) {
    recentRefreshes = new Map();
    refreshesByClient.set(client, recentRefreshes);
  }
  const recent = recentRefreshes;
  let pending = recent.get(tokens.refreshToken);
  if (!pending) {
    pending = client
      .refresh(tokens.refreshToken)
      .then((result): Promise<RefreshOutcome> | RefreshOutcome => {
        const next = sessionFromAuthentication(result, tokens.signInDetails, tokens);
        return next ? withCurrentMfa(client, next) : "signed-out";
      })
      .catch((error: unknown) => {
        if (isCognitoError(error) && error.isNetwork) return "unreachable" as const;
        const code = isCognitoError(error) ? error.code : "unexpected";
        services.logger.info({ code }, "session refresh refused: signing out");
        return "signed-out" as const;
      })
      .then((outcome) => {
        // An unreachable service is asked again by the next request.
        if (outcome === "unreachable") recent.delete(tokens.refreshToken);
        else setTimeout(() => recent.delete(tokens.refreshToken), REFRESH_SHARED_MS).unref();
        return outcome;
      });
    recent.set(tokens.refreshToken, pending);
  }
  return pending;
}

/**
 * The session of this request, read once before any loader or action runs (request-context:
 * after the sign-outs are checked): the cookie opened, and its tokens refreshed when they are
 * about to expire. What changes is written to the request's cookie jar.
 */
export async function loadSession(
  services: SessionServices,
  jar: CookieJar,
): Promise<Session | null> {
  const cookie = services.cookies.authSession;
  let tokens = jar.get(cookie);
  if (!tokens) return null;
  if (refreshDue(tokens, Date.now())) {
    const outcome = await refreshed(services, tokens);
    if (outcome === "signed-out") {
      jar.clear(cookie);
      return null;
    }
    if (outcome !== "unreachable") {
      tokens = outcome;
      jar.set(cookie, tokens);
    }
  }
  return sessionOf(tokens);
}

/** The signed-in customer, or null. */
export function getCustomer(context: RequestContext): Customer | null {
  return context.session?.customer ?? null;
}

export interface SignedIn {
  customer: Customer;
  accessToken: string;
}

/**
 * For pages and actions that need a customer: the Cognito `sub` and email of whoever is signed
 * in, and the access token for calls on their behalf. Anyone else is sent to sign-in, which
 * brings them back to this page (same-site path) afterwards.
 */
export function requireCustomer(context: RequestContext, request: Request): SignedIn {
  const { session } = context;
  if (session) return { customer: session.customer, accessToken: session.tokens.accessToken };
  const url = pageUrlOf(request.url);
  setFlash(context, { kind: "info", key: "auth:flash.signInRequired" });
  throw redirect(signInPathFor(`${url.pathname}${url.search}`), { status: 303 });
}

/** The customer changed their MFA settings here: the session keeps the new ones. */
export function rememberMfa(context: RequestContext, mfa: MfaSettings) {
  const { session } = context;
  if (!session) return;
  const tokens = { ...session.tokens, mfa };
  context.session = { ...session, tokens };
  context.jar.set(context.cookies.authSession, tokens);
}

/**
 * New tokens now rather than at expiry, after a change their claims carry (a contact just
 * verified): the ID token then says so. A refusal or an unreachable service leaves the session.
 */
export async function refreshSessionNow(context: RequestContext) {
  const { session } = context;
  if (!session) return;
  const outcome = await refreshed(context, session.tokens);
  if (typeof outcome === "string") return;
  const next = sessionOf(outcome);
  if (!next) return;
  context.session = next;
  context.jar.set(context.cookies.authSession, outcome);
}

/** Tokens arrived: this browser is signed in, and any sign-in in progress is over. */
export function startSession(context: RequestContext, tokens: SessionTokens) {
  context.jar.set(context.cookies.authSession, tokens);
  context.jar.clear(context.cookies.authPending);
  context.session = sessionOf(tokens);
}

/**
 * Signs this browser out and ends the session for every copy of its cookie. What this browser
 * may reopen as a guest (orders, portability requests) is closed too, for the next person at the
 * same browser and for any copy of those cookies.
 */
export async function endSession(context: RequestContext) {
  context.jar.clear(context.cookies.authPending);
  context.jar.clear(context.cookies.accountTotpSetup);
  context.session = null;
  await revokeBrowserAccess(context);
}

/**
 * Remembers a sign-in waiting for its next step, for the spec's 180 seconds unless told
 * otherwise (a sign-up waiting for its code: SIGN_UP_PENDING_MAX_AGE_SECONDS).
 */
export function setPending(
  context: RequestContext,
  pending: Omit<PendingSignIn, "expiresAt">,
  lifetimeSeconds = PENDING_MAX_AGE_SECONDS,
) {
  context.jar.set(context.cookies.authPending, {
    ...pending,
    expiresAt: Date.now() + Math.min(lifetimeSeconds, PENDING_COOKIE_MAX_AGE_SECONDS) * 1000,
  });
}

/** The SignUp session Cognito returned, to confirm with for the next AUTO_SIGN_IN_WINDOW_SECONDS. */
export function autoSignInWindow(session: string | undefined): PendingSignIn["autoSignIn"] {
  return session
    ? { session, expiresAt: Date.now() + AUTO_SIGN_IN_WINDOW_SECONDS * 1000 }
    : undefined;
}

/** The SignUp session to confirm with, while the automatic sign-in window is open. */
export function openAutoSignIn(pending: PendingSignIn | null, username: string): string | null {
  const autoSignIn = pending?.autoSignIn;
  if (!autoSignIn || pending.username.toLowerCase() !== username.toLowerCase()) return null;
  return autoSignIn.expiresAt > Date.now() ? autoSignIn.session : null;
}

export function readPending(context: RequestContext): PendingSignIn | null {
  const pending = context.jar.get(context.cookies.authPending);
  return pending && pending.expiresAt > Date.now() ? pending : null;
}

export function clearPending(context: RequestContext) {
  context.jar.clear(context.cookies.authPending);
}

/**
 * An authenticator app being added from the account: its own 10 minutes, not the sign-in's
 * 180 seconds, so the customer can install the app first (decision 0068).
 */
export const ACCOUNT_TOTP_SETUP_MAX_AGE_SECONDS = 600;

export interface AccountTotpSetup {
  /** The customer it was started for: another account signed in later finds nothing. */
  sub: string;
  secret: string;
  expiresAt: number;
}

export const accountTotpSetupSchema: z.ZodType<AccountTotpSetup> = z.object({
  sub: z.string().min(1).max(128),
  secret: z.string().min(16).max(128),
  expiresAt: z.number(),
});

/** An authenticator app being added from the account (10 minutes). */
export const accountTotpSetupCookieSpec: SealedCookieSpec<AccountTotpSetup> = {
  name: "auth_totp_setup",
  maxAgeSeconds: ACCOUNT_TOTP_SETUP_MAX_AGE_SECONDS,
  schema: accountTotpSetupSchema,
};

export function startAccountTotpSetup(context: RequestContext, sub: string, secret: string) {
  context.jar.set(context.cookies.accountTotpSetup, {
    sub,
    secret,
    expiresAt: Date.now() + ACCOUNT_TOTP_SETUP_MAX_AGE_SECONDS * 1000,
  });
}

/** The secret of this customer's setup in progress, or null (none, another account's, expired). */
export function readAccountTotpSetup(context: RequestContext, sub: string): string | null {
  const setup = context.jar.get(context.cookies.accountTotpSetup);
  return setup && setup.sub === sub && setup.expiresAt > Date.now() ? setup.secret : null;
}

export function clearAccountTotpSetup(context: RequestContext) {
  context.jar.clear(context.cookies.accountTotpSetup);
}
