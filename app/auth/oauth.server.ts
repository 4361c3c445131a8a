import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { data, redirect } from "react-router";
import * as z from "zod";
import { SOCIAL_PROVIDER_IDS, type SocialProviderId } from "~/config.server";
import { setFlash } from "~/lib/flash.server";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import { completeSignIn } from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { getCustomer, sessionFromAuthentication } from "./session.server";
import { authPath } from "./steps";
import { customerFromTokens, type SessionTokens } from "./tokens";
import type { RequestContext } from "~/context";

/**
 * Social sign-in through Cognito's hosted OAuth 2.0 endpoints (decision 0069): authorization
 * code with PKCE (S256). The state and the verifier wait in a short sealed cookie of their own
 * between the redirect to the hosted page and the customer's return; the code is exchanged at
 * `/oauth2/token` by form POST and the tokens start the same session as a password sign-in.
 */

/** The spec's lengths (§9): PKCE verifier 128 characters, state 32. */
export const PKCE_VERIFIER_LENGTH = 128;
export const STATE_LENGTH = 32;
/** How long the customer may stay on the provider's pages before the answer is refused. */
export const OAUTH_COOKIE_MAX_AGE_SECONDS = 600;
/** The session's `authFlowType` after a social sign-in: sign-out then also ends the hosted one. */
export const OAUTH_AUTH_FLOW = "OAUTH";
/** The app's return address for the hosted pages, under the configured public origin. */
export const OAUTH_CALLBACK_PATH = "/auth/oauth/callback";
export const OAUTH_SCOPES = ["openid", "email", "profile", "aws.cognito.signin.user.admin"];

/** Cognito's names of the social identity providers. */
export const IDENTITY_PROVIDER_NAMES: Record<SocialProviderId, string> = {
  amazon: "LoginWithAmazon",
  apple: "SignInWithApple",
  facebook: "Facebook",
  google: "Google",
};

export function isSocialProviderId(value: string | undefined): value is SocialProviderId {
  return (SOCIAL_PROVIDER_IDS as readonly string[]).includes(value ?? "");
}

/** RFC 7636's unreserved characters, the verifier's alphabet (the state uses it too). */
const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

/** `length` characters drawn uniformly from the unreserved set (bytes past 198 are redrawn). */
export function randomUnreserved(length: number): string {
  const limit = 256 - (256 % UNRESERVED.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += UNRESERVED[byte % UNRESERVED.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(verifier))). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function createPkcePair() {
  const verifier = randomUnreserved(PKCE_VERIFIER_LENGTH);
  return { verifier, challenge: s256(verifier) };
}

export function createState(): string {
  return randomUnreserved(STATE_LENGTH);
}

/** Compared in constant time: the state is the one thing an attacker's link cannot know. */
export function sameState(expected: string, received: string | null): boolean {
  if (received === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the sealed `auth_oauth` cookie keeps while the customer is at the provider. */
export interface OAuthTransaction {
  state: string;
  verifier: string;
  provider: SocialProviderId;
  redirectTo: string;
  expiresAt: number;
}

export const oauthTransactionSchema: z.ZodType<OAuthTransaction> = z.object({
  state: z.string().length(STATE_LENGTH),
  verifier: z.string().length(PKCE_VERIFIER_LENGTH),
  provider: z.enum(SOCIAL_PROVIDER_IDS),
  redirectTo: z.string().max(2048),
  expiresAt: z.number(),
});

/** A social sign-in at the provider: state, PKCE verifier, where to go (10 minutes). */
export const authOauthCookieSpec: SealedCookieSpec<OAuthTransaction> = {
  name: "auth_oauth",
  maxAgeSeconds: OAUTH_COOKIE_MAX_AGE_SECONDS,
  schema: oauthTransactionSchema,
};

/** The hosted endpoints: the pool's domain (an origin) and the app client. */
export interface HostedUi {
  domain: string;
  clientId: string;
}

export function authorizeUrl(input: {
  hosted: HostedUi;
  redirectUri: string;
  provider: SocialProviderId;
  state: string;
  challenge: string;
}): string {
  const url = new URL("/oauth2/authorize", input.hosted.domain);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: input.hosted.clientId,
    redirect_uri: input.redirectUri,
    identity_provider: IDENTITY_PROVIDER_NAMES[input.provider],
    scope: OAUTH_SCOPES.join(" "),
    state: input.state,
    code_challenge: input.challenge,
    code_challenge_method: "S256",
  }).toString();
  return url.toString();
}

export function logoutUrl(hosted: HostedUi, logoutUri: string): string {
  const url = new URL("/logout", hosted.domain);
  url.search = new URLSearchParams({
    client_id: hosted.clientId,
    logout_uri: logoutUri,
  }).toString();
  return url.toString();
}

/** The spec's OAuth errors (§8) and what else can go wrong on the way back; `social.errors.*`. */
export type SocialErrorKey =
  "cancelled" | "stateMismatch" | "noAccessToken" | "codeRejected" | "providerError" | "network";

/** An `error` the hosted pages sent back instead of a code. */
export function callbackErrorKey(error: string): SocialErrorKey {
  return error === "access_denied" ? "cancelled" : "providerError";
}

export type TokenExchange =
  | { ok: true; result: { AccessToken: string; IdToken: string; RefreshToken?: string } }
  | { ok: false; key: SocialErrorKey; cause: string };

/**
 * The code for tokens at `/oauth2/token` (a form POST, as Cognito documents it). Never throws: an
 * unreachable domain, a refusal or an answer without an access token each has its key.
 */
export async function exchangeCode(input: {
  hosted: HostedUi;
  code: string;
  redirectUri: string;
  verifier: string;
  timeoutMs: number;
  /** Only for an app client with a secret (HTTP Basic); the storefront's client has none. */
  clientSecret?: string;
  fetch?: typeof fetch;
}): Promise<TokenExchange> {
  const doFetch = input.fetch ?? fetch;
  const headers: Record<string, string> = {
    "Content-Type": "application/x-www-form-urlencoded",
    Accept: "application/json",
  };
  if (input.clientSecret) {
    const basic = `${encodeURIComponent(input.hosted.clientId)}:${encodeURIComponent(input.clientSecret)}`;
    headers.Authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
  }
  let response: Response;
  try {
    response = await doFetch(new URL("/oauth2/token", input.hosted.domain), {
      method: "POST",
      headers,
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: input.hosted.clientId,
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.verifier,
      }).toString(),
      signal: AbortSignal.timeout(input.timeoutMs),
    });
  } catch (error) {
    return { ok: false, key: "network", cause: error instanceof Error ? error.name : "unknown" };
  }
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: judged by the status below.
  }
  if (!response.ok) {
    const error =
      typeof body.error === "string" ? body.error.slice(0, 64) : `http_${response.status}`;
    if (response.status >= 500) return { ok: false, key: "network", cause: error };
    return { ok: false, key: "codeRejected", cause: error };
  }
  const accessToken = body.access_token;
  if (typeof accessToken !== "string" || !accessToken) {
    return { ok: false, key: "noAccessToken", cause: "no_access_token" };
  }
  return {
    ok: true,
    result: {
      AccessToken: accessToken,
      IdToken: typeof body.id_token === "string" ? body.id_token : "",
      RefreshToken: typeof body.refresh_token === "string" ? body.refresh_token : undefined,
    },
  };
}

function redirectUriOf(context: RequestContext) {
  return `${context.config.publicOrigin}${OAUTH_CALLBACK_PATH}`;
}

function signInWith(redirectTo: string | undefined) {
  return redirectTo && redirectTo !== "/"
    ? `${authPath("sign-in")}?redirectTo=${encodeURIComponent(redirectTo)}`
    : authPath("sign-in");
}

/** Back to sign-in with the Spanish message; nothing is signed in. */
function refused(context: RequestContext, key: SocialErrorKey, redirectTo?: string) {
  setFlash(context, { kind: "error", key: `auth:social.errors.${key}` });
  return redirect(signInWith(redirectTo), { status: 303 });
}

/** The providers this server offers (configuration), in a fixed order. */
export function configuredProviders(context: RequestContext): SocialProviderId[] {
  return SOCIAL_PROVIDER_IDS.filter((id) => context.config.SOCIAL_PROVIDERS.includes(id));
}

/**
 * GET /auth/oauth/:provider — remembers state and verifier in the sealed cookie and sends the
 * browser to the hosted authorize page. A provider that is not configured is a 404.
 */
export async function startSocialSignIn(
  context: RequestContext,
  request: Request,
  provider: string | undefined,
): Promise<Response> {
  if (!isSocialProviderId(provider) || !configuredProviders(context).includes(provider)) {
    throw data(null, { status: 404 });
  }
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (getCustomer(context)) {
    setFlash(context, { kind: "info", key: "auth:errors.alreadySignedIn" });
    return redirect(redirectTo, { status: 303 });
  }
  const hosted = await context.identity.hostedUi().catch(() => null);
  if (!hosted) return refused(context, "network", redirectTo);
  const state = createState();
  const { verifier, challenge } = createPkcePair();
  context.jar.set(context.cookies.authOauth, {
    state,
    verifier,
    provider,
    redirectTo,
    expiresAt: Date.now() + OAUTH_COOKIE_MAX_AGE_SECONDS * 1000,
  });
  return redirect(
    authorizeUrl({ hosted, redirectUri: redirectUriOf(context), provider, state, challenge }),
    { status: 302 },
  );
}

/**
 * GET /auth/oauth/callback — the hosted pages' answer. The state must match the cookie's (else
 * nothing is exchanged); a cancellation or an error goes back to sign-in with its message; the
 * code is exchanged and the session starts as after a password sign-in.
 */
export async function finishSocialSignIn(
  context: RequestContext,
  request: Request,
): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const transaction = context.jar.get(context.cookies.authOauth);
  // One answer per transaction, whatever it is.
  context.jar.clear(context.cookies.authOauth);
  const log = (outcome: string, extra: Record<string, unknown> = {}) =>
    // Never the code, the state, the verifier or a token: only what happened.
    context.logger.info(
      { requestId: context.requestId, provider: transaction?.provider, outcome, ...extra },
      "social sign-in answer",
    );
  if (
    !transaction ||
    transaction.expiresAt <= Date.now() ||
    !sameState(transaction.state, params.get("state"))
  ) {
    log("state-mismatch", { hadCookie: Boolean(transaction) });
    return refused(context, "stateMismatch", transaction?.redirectTo);
  }
  const { redirectTo } = transaction;
  const error = params.get("error");
  if (error !== null) {
    const key = callbackErrorKey(error);
    log(key, { error: error.slice(0, 64) });
    return refused(context, key, redirectTo);
  }
  const code = params.get("code");
  if (!code) {
    log("no-code");
    return refused(context, "providerError", redirectTo);
  }
  const hosted = await context.identity.hostedUi().catch(() => null);
  if (!hosted) return refused(context, "network", redirectTo);
  const exchanged = await exchangeCode({
    hosted,
    code,
    redirectUri: redirectUriOf(context),
    verifier: transaction.verifier,
    timeoutMs: context.config.COGNITO_TIMEOUT_MS,
  });
  if (!exchanged.ok) {
    log(exchanged.key, { cause: exchanged.cause });
    return refused(context, exchanged.key, redirectTo);
  }
  const email = customerFromTokens({ idToken: exchanged.result.IdToken })?.email;
  const tokens = email
    ? sessionFromAuthentication(exchanged.result, {
        loginId: email,
        authFlowType: OAUTH_AUTH_FLOW,
      })
    : null;
  if (!email || !tokens) {
    log("no-session");
    setFlash(context, { kind: "error", key: "auth:errors.noSessionAfterSignIn" });
    return redirect(signInWith(redirectTo), { status: 303 });
  }
  log("signed-in");
  return completeSignIn(context, { tokens, redirectTo });
}

/**
 * Where sign-out sends the browser after the session ended here: the hosted logout, when the
 * session came from a social sign-in (the hosted domain keeps its own cookie); otherwise null.
 */
export async function hostedLogoutUrl(context: RequestContext): Promise<string | null> {
  const tokens: SessionTokens | null =
    context.session?.tokens ?? context.jar.received(context.cookies.authSession);
  if (tokens?.signInDetails.authFlowType !== OAUTH_AUTH_FLOW) return null;
  const hosted = await context.identity.hostedUi().catch(() => null);
  return hosted ? logoutUrl(hosted, `${context.config.publicOrigin}/`) : null;
}
