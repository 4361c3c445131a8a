import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createCookieJar } from "~/lib/cookie-jar.server";
import {
  MAX_SET_COOKIE_BYTES,
  createSealedCookie,
  parseCookieHeader,
} from "~/lib/sealed-cookie.server";
import { CognitoError } from "./cognito-error";
import {
  loadSession,
  pendingSignInSchema,
  sessionFromAuthentication,
  sessionTokensSchema,
  type PendingSignIn,
} from "./session.server";
import type { SessionTokens } from "./tokens";

const fixture = JSON.parse(
  readFileSync(
    path.join(__dirname, "../../tests/fixtures/cognito/RespondToAuthChallenge.tokens.200.json"),
    "utf8",
  ),
) as { AuthenticationResult: { AccessToken: string; IdToken: string; RefreshToken: string } };
const realSize = sessionFromAuthentication(fixture.AuthenticationResult, {
  loginId: "maria.fernanda.hernandez@ejemplo.mx",
  authFlowType: "USER_SRP_AUTH",
})!;

const secrets = ["s".repeat(40)];
const sessionCookie = (secure = false) =>
  createSealedCookie({
    name: "auth_session",
    secrets,
    secure,
    maxAgeSeconds: 3600,
    schema: sessionTokensSchema,
  });

/** The Cookie header a browser sends after receiving these Set-Cookie lines. */
function browserSends(setCookies: string[], previous: string | null = null): string {
  const cookies = parseCookieHeader(previous);
  for (const line of setCookies) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    if (line.includes("Max-Age=0")) cookies.delete(pair.slice(0, at));
    else cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

describe("the session cookie with tokens of real Cognito size", () => {
  it("the tokens together do not fit one cookie, so they are chunked, every Set-Cookie under 4096 bytes", () => {
    expect(JSON.stringify(realSize).length).toBeGreaterThan(4096);
    for (const secure of [false, true]) {
      const setCookies = sessionCookie(secure).write(realSize, null);
      expect(setCookies.length).toBeGreaterThan(1);
      for (const line of setCookies)
        expect(Buffer.byteLength(line)).toBeLessThan(MAX_SET_COOKIE_BYTES);
      expect(setCookies[0]).toMatch(secure ? /^__Host-auth_session\.0=/ : /^auth_session\.0=/);
    }
  });

  it("opens again to exactly the tokens held, and the browser never sees a token", () => {
    const cookie = sessionCookie();
    const setCookies = cookie.write(realSize, null);
    expect(setCookies.join("\n")).not.toContain(realSize.idToken.slice(0, 40));
    expect(cookie.read(browserSends(setCookies))).toEqual(realSize);
  });

  it("a tampered or truncated chunk, or a missing one, reads as no session", () => {
    const cookie = sessionCookie();
    const header = browserSends(cookie.write(realSize, null));
    const tampered = header.replace(
      /(auth_session\.1=)(.)/,
      (_m, name: string, first: string) => `${name}${first === "A" ? "B" : "A"}`,
    );
    expect(cookie.read(tampered)).toBeNull();
    const truncated = header.replace(/(auth_session\.1=[^;]{100})[^;]*/, "$1");
    expect(cookie.read(truncated)).toBeNull();
    const missing = header
      .split("; ")
      .filter((pair) => !pair.startsWith("auth_session.1="))
      .join("; ");
    expect(cookie.read(missing)).toBeNull();
    expect(cookie.read(`${header.split("; ")[1]}; ${header.split("; ")[0]}`)).toEqual(realSize);
  });

  it("clears stale chunks when a smaller session replaces a larger one", () => {
    const cookie = sessionCookie();
    const before = browserSends(
      cookie.write({ ...realSize, idToken: realSize.idToken.repeat(3) }, null),
    );
    const chunksBefore = before.split("; ").length;
    const setCookies = cookie.write(realSize, before);
    const expired = setCookies.filter((line) => line.includes("Max-Age=0"));
    expect(expired.length).toBe(
      chunksBefore - setCookies.filter((line) => !line.includes("Max-Age=0")).length,
    );
    expect(cookie.read(browserSends(setCookies, before))).toEqual(realSize);
  });

  it("the pending sign-in state with a real Cognito session fits one cookie and expires", () => {
    vi.useFakeTimers();
    try {
      const pending = createSealedCookie({
        name: "auth_pending",
        secrets,
        secure: true,
        maxAgeSeconds: 180,
        schema: pendingSignInSchema,
      });
      const state: PendingSignIn = {
        username: "maria@ejemplo.mx",
        userIdForSrp: "f8a1c3e0-7b2d-4c55-9e61-2a9d4b7c1e08",
        challengeName: "MFA_SETUP",
        session: "A".repeat(920),
        totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
        parameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]' },
        redirectTo: "/my-account/recarga",
        expiresAt: Date.now() + 180_000,
      };
      const setCookies = pending.write(state, null);
      expect(setCookies).toHaveLength(1);
      expect(Buffer.byteLength(setCookies[0])).toBeLessThan(MAX_SET_COOKIE_BYTES);
      expect(setCookies[0]).toContain("Max-Age=180");
      const header = browserSends(setCookies);
      expect(pending.read(header)).toEqual(state);
      vi.advanceTimersByTime(181_000);
      expect(pending.read(header)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("loadSession: the session read once per request", () => {
  const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const jwt = (payload: object) => `${base64url({ alg: "RS256" })}.${base64url(payload)}.sig`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const expiring: SessionTokens = {
    sessionId: "session-id-0123456789",
    accessToken: jwt({ exp: nowSeconds() + 60, iat: nowSeconds() - 3540 }),
    idToken: jwt({ sub: "s", email: "a@b.mx" }),
    refreshToken: "refresh-1",
    clockDrift: 0,
    signInDetails: { loginId: "a@b.mx", authFlowType: "USER_SRP_AUTH" },
  };

  function servicesWith(refresh: () => Promise<unknown>) {
    const cookie = sessionCookie();
    return {
      cookie,
      services: {
        cookies: { authSession: cookie },
        identity: { client: { refresh } },
        logger: { info: vi.fn(), error: vi.fn() },
      } as unknown as Parameters<typeof loadSession>[0],
    };
  }

  it("leaves a fresh session alone", async () => {
    const refresh = vi.fn();
    const { cookie, services } = servicesWith(refresh);
    const jar = createCookieJar(browserSends(cookie.write(realSize, null)));
    expect((await loadSession(services, jar))?.tokens).toEqual(realSize);
    expect(refresh).not.toHaveBeenCalled();
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([]);
  });

  it("refreshes a token about to expire, keeping the session id and the refresh token Cognito did not replace", async () => {
    const newAccess = jwt({ exp: nowSeconds() + 3600, iat: nowSeconds() });
    const { cookie, services } = servicesWith(async () => ({
      AccessToken: newAccess,
      IdToken: expiring.idToken,
    }));
    const jar = createCookieJar(browserSends(cookie.write(expiring, null)));
    const session = await loadSession(services, jar);
    expect(session?.tokens).toMatchObject({
      accessToken: newAccess,
      refreshToken: "refresh-1",
      sessionId: expiring.sessionId,
    });
    const setCookies = jar.setCookieHeaders({ redirect: false });
    expect(cookie.read(browserSends(setCookies))).toMatchObject({ accessToken: newAccess });
    expect(setCookies.every((line) => Buffer.byteLength(line) < MAX_SET_COOKIE_BYTES)).toBe(true);
  });

  it("signs the customer out when Cognito refuses the refresh token", async () => {
    const { cookie, services } = servicesWith(async () => {
      throw new CognitoError(
        "NotAuthorizedException",
        "Refresh Token has been revoked",
        400,
        "InitiateAuth",
      );
    });
    const jar = createCookieJar(browserSends(cookie.write(expiring, null)));
    expect(await loadSession(services, jar)).toBeNull();
    const setCookies = jar.setCookieHeaders({ redirect: false });
    expect(setCookies.every((line) => line.includes("Max-Age=0"))).toBe(true);
  });

  it("keeps the session when the service cannot be reached (network error)", async () => {
    const { cookie, services } = servicesWith(async () => {
      throw new CognitoError("NetworkError", "Network error", 0, "InitiateAuth");
    });
    const jar = createCookieJar(browserSends(cookie.write(expiring, null)));
    expect((await loadSession(services, jar))?.tokens).toEqual(expiring);
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([]);
  });

  it("shares one refresh between concurrent requests of the same customer", async () => {
    const refresh = vi.fn(async () => ({
      AccessToken: jwt({ exp: nowSeconds() + 3600 }),
      IdToken: expiring.idToken,
    }));
    const { cookie, services } = servicesWith(refresh);
    const header = browserSends(cookie.write(expiring, null));
    await Promise.all([
      loadSession(services, createCookieJar(header)),
      loadSession(services, createCookieJar(header)),
    ]);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe("when the session's customer authenticated", () => {
  it("is the sign-in's time, kept by a refresh (which proves nothing new)", () => {
    const details = { loginId: "a@ejemplo.mx", authFlowType: "USER_SRP_AUTH" };
    const before = Date.now();
    const signedIn = sessionFromAuthentication(fixture.AuthenticationResult, details)!;
    expect(signedIn.authenticatedAt).toBeGreaterThanOrEqual(before);
    const refreshed = sessionFromAuthentication(
      { ...fixture.AuthenticationResult, RefreshToken: undefined },
      details,
      { ...signedIn, authenticatedAt: 42 },
    )!;
    expect(refreshed.authenticatedAt).toBe(42);
    expect(refreshed.sessionId).toBe(signedIn.sessionId);
  });
});
