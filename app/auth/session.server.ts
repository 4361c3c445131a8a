import { redirect, type AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import { flashHeaders } from "~/lib/flash.server";
import { parseCookieHeader } from "~/lib/sealed-cookie.server";
import type { Services } from "~/services.server";
import { isCognitoError } from "./cognito.server";
import { signInPathFor } from "./redirect";
import {
  customerFromTokens,
  measureClockDrift,
  refreshDue,
  type Customer,
  type SessionTokens,
} from "./tokens";

/** The session cookie lives as long as Cognito's default refresh token (30 days). */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** The spec's sign-in state expiry. */
export const PENDING_MAX_AGE_SECONDS = 180;

export const sessionTokensSchema: z.ZodType<SessionTokens> = z.object({
  accessToken: z.string().min(1),
  idToken: z.string().min(1),
  refreshToken: z.string().min(1),
  clockDrift: z.number(),
  signInDetails: z.object({ loginId: z.string(), authFlowType: z.string() }),
});

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
  /** Epoch milliseconds; the cookie itself dies at the same moment. */
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
  expiresAt: z.number(),
});

type CookieContext = Pick<Services, "cookies">;

export function readSession(context: CookieContext, request: Request): SessionTokens | null {
  return context.cookies.authSession.read(request.headers.get("Cookie"));
}

/** Tokens as they arrived from Cognito → the session to store. */
export function sessionFromAuthentication(
  result: { AccessToken: string; IdToken: string; RefreshToken?: string },
  signInDetails: SessionTokens["signInDetails"],
  previousRefreshToken?: string,
): SessionTokens | null {
  const refreshToken = result.RefreshToken ?? previousRefreshToken;
  if (!refreshToken) return null;
  return {
    accessToken: result.AccessToken,
    idToken: result.IdToken,
    refreshToken,
    clockDrift: measureClockDrift(result.AccessToken, Date.now()),
    signInDetails,
  };
}

/** The signed-in customer, or null. */
export function getCustomer(request: Request, context: CookieContext): Customer | null {
  const tokens = readSession(context, request);
  return tokens ? customerFromTokens(tokens) : null;
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
export function requireCustomer(request: Request, context: AppLoadContext): SignedIn {
  const tokens = readSession(context, request);
  const customer = tokens ? customerFromTokens(tokens) : null;
  if (tokens && customer) return { customer, accessToken: tokens.accessToken };
  const url = new URL(request.url);
  throw redirect(signInPathFor(`${url.pathname}${url.search}`), {
    status: 303,
    headers: flashHeaders(context, request, { kind: "info", key: "auth:flash.signInRequired" }),
  });
}

export function pendingCookieHeaders(
  context: CookieContext,
  request: Request,
  pending: Omit<PendingSignIn, "expiresAt">,
): string[] {
  return context.cookies.authPending.write(
    { ...pending, expiresAt: Date.now() + PENDING_MAX_AGE_SECONDS * 1000 },
    request.headers.get("Cookie"),
  );
}

export function readPending(context: CookieContext, request: Request): PendingSignIn | null {
  const pending = context.cookies.authPending.read(request.headers.get("Cookie"));
  return pending && pending.expiresAt > Date.now() ? pending : null;
}

/** Set-Cookie headers that end the session and any sign-in in progress. */
export function clearAuthCookies(context: CookieContext, request: Request): string[] {
  const header = request.headers.get("Cookie");
  return [
    ...context.cookies.authSession.clear(header),
    ...context.cookies.authPending.clear(header),
  ];
}

/**
 * A Cookie header as the browser will send it once these Set-Cookie headers are applied, so
 * that loaders of the same request see refreshed (or removed) tokens.
 */
export function applySetCookies(cookieHeader: string | null, setCookies: string[]): string {
  const cookies = parseCookieHeader(cookieHeader);
  for (const setCookie of setCookies) {
    const [pair, ...attributes] = setCookie.split(";");
    const separator = pair.indexOf("=");
    const name = pair.slice(0, separator).trim();
    const expired = attributes.some((attribute) => attribute.trim().toLowerCase() === "max-age=0");
    if (expired) cookies.delete(name);
    else cookies.set(name, pair.slice(separator + 1));
  }
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

const refreshesInFlight = new Map<string, Promise<SessionTokens | "signed-out" | "unreachable">>();

/**
 * Refreshes the tokens when the access token is about to expire, once per request before any
 * loader runs (server.ts). A refusal signs the customer out; an unreachable service keeps the
 * session as it is, to try again on the next request. Concurrent requests of one customer
 * share one refresh, so a rotating refresh token is used once.
 */
export async function refreshSessionIfDue(
  services: Pick<Services, "cookies" | "identity" | "logger">,
  cookieHeader: string | null,
): Promise<{ setCookies: string[]; cookieHeader: string } | null> {
  const tokens = services.cookies.authSession.read(cookieHeader);
  if (!tokens || !refreshDue(tokens, Date.now())) return null;
  let pending = refreshesInFlight.get(tokens.refreshToken);
  if (!pending) {
    pending = services.identity.client
      .refresh(tokens.refreshToken)
      .then(
        (result) =>
          sessionFromAuthentication(result, tokens.signInDetails, tokens.refreshToken) ??
          ("signed-out" as const),
      )
      .catch((error: unknown) => {
        if (isCognitoError(error) && error.isNetwork) return "unreachable" as const;
        const code = isCognitoError(error) ? error.code : "unexpected";
        services.logger.info({ code }, "session refresh refused: signing out");
        return "signed-out" as const;
      })
      .finally(() => refreshesInFlight.delete(tokens.refreshToken));
    refreshesInFlight.set(tokens.refreshToken, pending);
  }
  const outcome = await pending;
  if (outcome === "unreachable") return null;
  const setCookies =
    outcome === "signed-out"
      ? [...services.cookies.authSession.clear(cookieHeader)]
      : services.cookies.authSession.write(outcome, cookieHeader);
  return { setCookies, cookieHeader: applySetCookies(cookieHeader, setCookies) };
}
