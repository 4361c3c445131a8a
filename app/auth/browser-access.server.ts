import type { CookieJar } from "~/lib/cookie-jar.server";
import type { SealedCookie } from "~/lib/sealed-cookie.server";
import { revokeAccess, revokedAmong, type SessionAuthentication } from "./revoked-access.server";
import { authenticatedAtOf, customerFromTokens, type SessionTokens } from "./tokens";
import type { RequestContext } from "~/context";

/**
 * The cookies that open something to whoever holds them: the session, the guest access to the
 * orders and portability requests placed from this browser, the sandbox payments it was sent
 * to pay, and the SIMs activated from it (their numbers). Each carries a random id; sign-out
 * revokes them all, so a copy saved before it opens nothing afterwards (decision 0056).
 */
interface AccessCookie {
  cookie: SealedCookie<unknown>;
  idOf(value: unknown): string;
}

function accessCookies(cookies: RequestContext["cookies"]): AccessCookie[] {
  const entry = <T>(cookie: SealedCookie<T>, idOf: (value: T) => string): AccessCookie => ({
    cookie: cookie as SealedCookie<unknown>,
    idOf: idOf as (value: unknown) => string,
  });
  return [
    entry(cookies.authSession, (tokens) => tokens.sessionId),
    entry(cookies.orderAccess, (access) => access.accessId),
    entry(cookies.portability, (access) => access.accessId),
    entry(cookies.sandboxPayer, (payer) => payer.accessId),
    entry(cookies.activations, (access) => access.accessId),
  ];
}

function sessionAuthentication(tokens: SessionTokens | null): SessionAuthentication | null {
  const email = tokens ? customerFromTokens(tokens)?.email : null;
  return tokens && email ? { email, authenticatedAt: new Date(authenticatedAtOf(tokens)) } : null;
}

/**
 * Before any loader runs: the access cookies this browser sent whose ids were revoked read as
 * absent from now on, and are removed from the browser; so is a session authenticated before its
 * account signed out everywhere (decision 0134), whose refresh token is then revoked at Cognito
 * too. One query for all of them.
 */
export async function dropRevokedAccess(
  services: Pick<RequestContext, "cookies" | "db" | "logger"> &
    Partial<Pick<RequestContext, "identity">>,
  jar: CookieJar,
): Promise<void> {
  const held = accessCookies(services.cookies).flatMap(({ cookie, idOf }) => {
    const value = jar.get(cookie);
    return value === null ? [] : [{ cookie, id: idOf(value) }];
  });
  if (held.length === 0) return;
  const session = jar.get(services.cookies.authSession);
  let revoked: Set<string>;
  try {
    const answer = await revokedAmong(
      services.db,
      held.map((entry) => entry.id),
      sessionAuthentication(session),
    );
    revoked = answer.ids;
    if (answer.sessionSignedOut && session) {
      revoked.add(session.sessionId);
      // Cognito learns of it too where it can: a password reset has no token to sign out with.
      void services.identity?.client.revokeToken(session.refreshToken).catch(() => undefined);
    }
  } catch (error) {
    // Without the database a sign-out cannot be checked: nothing is opened for this request,
    // and the cookies stay for the next one.
    services.logger.error({ err: error }, "revocation check failed");
    for (const { cookie } of held) jar.forget(cookie);
    return;
  }
  for (const { cookie, id } of held) if (revoked.has(id)) jar.clear(cookie);
}

/**
 * Sign-out: every access cookie this browser holds is removed, then revoked until the last
 * possible copy of it has expired. A database that cannot take the revocation is logged; the
 * browser is signed out anyway.
 */
export async function revokeBrowserAccess(context: RequestContext): Promise<void> {
  const now = Date.now();
  const revoked = accessCookies(context.cookies).flatMap(({ cookie, idOf }) => {
    const value = context.jar.received(cookie);
    context.jar.clear(cookie);
    if (value === null) return [];
    return [{ id: idOf(value), until: new Date(now + (cookie.maxAgeSeconds ?? 0) * 1000) }];
  });
  try {
    await revokeAccess(context.db, revoked);
  } catch (error) {
    context.logger.error(
      { err: error, requestId: context.requestId },
      "sign-out: the revocation could not be recorded; the cookies were removed",
    );
  }
}
