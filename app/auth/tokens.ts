/**
 * Reading the tokens Cognito issued. Their signature is not checked here: they arrived straight
 * from Cognito over TLS and are kept in an encrypted, authenticated cookie that only this server
 * can open, so what the cookie holds is what Cognito sent.
 */

/** The spec's "tokens held", as the session cookie stores them. */
export interface SessionTokens {
  /** Random id of this sign-in, kept across refreshes; sign-out revokes it server-side. */
  sessionId: string;
  accessToken: string;
  idToken: string;
  refreshToken: string;
  /** Cognito's clock minus ours, in milliseconds, measured when the tokens arrived. */
  clockDrift: number;
  signInDetails: { loginId: string; authFlowType: string };
  /**
   * When the customer last proved who they are in this session (epoch ms, this server's clock):
   * the sign-in, then each re-authentication (reauth.server.ts). A sign-out of every session
   * ends the sessions authenticated before it; a sensitive change asks for a recent one.
   * Absent in sessions from before it was kept: the ID token's `auth_time` then says.
   */
  authenticatedAt?: number;
  /**
   * The customer's MFA settings as Cognito last told them (GetUser's names), so the account page
   * needs no call to Cognito: read at sign-in and at each refresh, updated when the customer
   * changes them here. Absent in sessions from before it was kept.
   */
  mfa?: MfaSettings;
}

export interface MfaSettings {
  /** `UserMFASettingList`: SOFTWARE_TOKEN_MFA, SMS_MFA, EMAIL_OTP. */
  enabled: string[];
  /** `PreferredMfaSetting`, or null. */
  preferred: string | null;
}

/** GetUser's answer → the settings kept in the session. */
export function mfaSettingsOf(user: {
  UserMFASettingList?: string[];
  PreferredMfaSetting?: string;
}): MfaSettings {
  return { enabled: user.UserMFASettingList ?? [], preferred: user.PreferredMfaSetting ?? null };
}

/** Refresh when the access token has less than this left. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split(".");
  // A JWE (the refresh token) has five parts and an encrypted payload: not readable here.
  if (parts.length !== 3) return null;
  // Read on every signed-in request (the session's expiry and claims): Node's own base64url
  // decoder, not a character-by-character copy, which took 3 % of a signed-in page's CPU.
  if (!/^[\w-]*$/.test(parts[1])) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return payload && typeof payload === "object" ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function numberClaim(payload: Record<string, unknown> | null, claim: string): number | null {
  const value = payload?.[claim];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Cognito's clock minus ours, from the issue time of a token that just arrived. */
export function measureClockDrift(accessToken: string, now: number): number {
  const issuedAt = numberClaim(decodeJwtPayload(accessToken), "iat");
  return issuedAt === null ? 0 : issuedAt * 1000 - now;
}

/** Epoch milliseconds at which the access token expires, or null when unreadable. */
export function accessTokenExpiry(tokens: Pick<SessionTokens, "accessToken">): number | null {
  const exp = numberClaim(decodeJwtPayload(tokens.accessToken), "exp");
  return exp === null ? null : exp * 1000;
}

/** True when the access token expires (on Cognito's clock) within the refresh margin. */
export function refreshDue(
  tokens: Pick<SessionTokens, "accessToken" | "clockDrift">,
  now: number,
  marginMs: number = REFRESH_MARGIN_MS,
): boolean {
  const expiresAt = accessTokenExpiry(tokens);
  if (expiresAt === null) return true;
  return expiresAt - (now + tokens.clockDrift) < marginMs;
}

/**
 * When this session's customer last authenticated (epoch ms): what the session recorded, else
 * the ID token's `auth_time` (Cognito's clock, kept across refreshes), else never (0).
 */
export function authenticatedAtOf(
  tokens: Pick<SessionTokens, "authenticatedAt" | "idToken" | "clockDrift">,
): number {
  if (tokens.authenticatedAt !== undefined) return tokens.authenticatedAt;
  const authTime = numberClaim(decodeJwtPayload(tokens.idToken), "auth_time");
  return authTime === null ? 0 : authTime * 1000 - tokens.clockDrift;
}

/** Who is signed in, read from the id token. */
export interface Customer {
  /** Cognito's stable user id (`sub`). */
  sub: string;
  email: string;
  /** Cognito's word (`email_verified`): proved by a code, or an identity provider's mapping. */
  emailVerified: boolean;
  /**
   * The identity providers this user signed in through or is linked to (the `identities`
   * claim, Cognito's provider names: `Google`, `Facebook`…); empty for a password account.
   */
  identityProviders: string[];
  /** Cognito's user name (a UUID in pools that sign in by email). */
  username: string;
}

/** Provider names from Cognito's `identities` claim (an array; a JSON string in attributes). */
function identityProvidersOf(claim: unknown): string[] {
  let identities = claim;
  if (typeof identities === "string") {
    try {
      identities = JSON.parse(identities);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(identities)) return [];
  return identities.flatMap((identity: unknown) => {
    const name = (identity as { providerName?: unknown } | null)?.providerName;
    return typeof name === "string" && name ? [name] : [];
  });
}

export function customerFromTokens(tokens: Pick<SessionTokens, "idToken">): Customer | null {
  const claims = decodeJwtPayload(tokens.idToken);
  if (!claims) return null;
  const { sub, email } = claims;
  if (typeof sub !== "string" || !sub || typeof email !== "string" || !email) return null;
  const username = claims["cognito:username"];
  return {
    sub,
    email,
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    identityProviders: identityProvidersOf(claims.identities),
    username: typeof username === "string" ? username : sub,
  };
}

/** Hides most of an address for "we sent a code to …" (spec's delivery details). */
export function maskDestination(destination: string): string {
  const at = destination.indexOf("@");
  if (at > 0) {
    const local = destination.slice(0, at);
    return `${local[0]}***${destination.slice(at)}`;
  }
  if (destination.length > 4)
    return `${"*".repeat(destination.length - 4)}${destination.slice(-4)}`;
  return destination;
}
