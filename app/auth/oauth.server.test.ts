import { afterEach, describe, expect, it, vi } from "vitest";
import { createCookieJar, type CookieJar } from "~/lib/cookie-jar.server";
import { flashSchema } from "~/lib/flash.server";
import { RateLimiter } from "~/lib/rate-limit";
import { createSealedCookie } from "~/lib/sealed-cookie.server";
import {
  OAUTH_AUTH_FLOW,
  PKCE_VERIFIER_LENGTH,
  STATE_LENGTH,
  authorizeUrl,
  callbackErrorKey,
  createPkcePair,
  createState,
  exchangeCode,
  finishSocialSignIn,
  hostedLogoutUrl,
  logoutUrl,
  oauthTransactionSchema,
  randomUnreserved,
  s256,
  sameState,
  startSocialSignIn,
  type OAuthTransaction,
} from "./oauth.server";
import { pendingSignInSchema, sessionTokensSchema } from "./session.server";
import type { RequestContext } from "~/context";

const UNRESERVED = /^[A-Za-z0-9\-._~]+$/;
const hosted = {
  domain: "https://conecta.auth.us-west-2.amazoncognito.com",
  clientId: "cliente123",
};
const CALLBACK = "https://tienda.example.mx/auth/oauth/callback";

/** An unsigned JWT carrying these claims: the app reads tokens, Cognito signs them. */
function jwt(claims: Record<string, unknown>) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none" })}.${part(claims)}.firma`;
}
const now = () => Math.floor(Date.now() / 1000);
const idToken = jwt({ sub: "sub-1", email: "ana@example.mx", email_verified: true, iat: now() });
const accessToken = jwt({ sub: "sub-1", iat: now(), exp: now() + 3600 });

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

describe("PKCE and state (spec §9: verifier 128 characters, state 32)", () => {
  it("S256 of RFC 7636 appendix B's verifier is its challenge", () => {
    expect(s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("makes a 128-character verifier of unreserved characters and its S256 challenge", () => {
    const { verifier, challenge } = createPkcePair();
    expect(verifier).toHaveLength(PKCE_VERIFIER_LENGTH);
    expect(verifier).toMatch(UNRESERVED);
    expect(challenge).toBe(s256(verifier));
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("makes a 32-character state, different each time", () => {
    const states = new Set(Array.from({ length: 50 }, createState));
    expect(states.size).toBe(50);
    for (const state of states) {
      expect(state).toHaveLength(STATE_LENGTH);
      expect(state).toMatch(UNRESERVED);
    }
  });

  it("draws every unreserved character (no alphabet is left out)", () => {
    const seen = new Set(randomUnreserved(20_000));
    expect(seen.size).toBe(66);
  });

  it("compares states exactly", () => {
    expect(sameState("a".repeat(32), "a".repeat(32))).toBe(true);
    expect(sameState("a".repeat(32), "b".repeat(32))).toBe(false);
    expect(sameState("a".repeat(32), "a".repeat(31))).toBe(false);
    expect(sameState("a".repeat(32), null)).toBe(false);
  });
});

describe("hosted addresses", () => {
  it("asks the authorize endpoint for a code with PKCE S256, the provider and the scopes", () => {
    const url = new URL(
      authorizeUrl({
        hosted,
        redirectUri: CALLBACK,
        provider: "apple",
        state: "s".repeat(32),
        challenge: "c".repeat(43),
      }),
    );
    expect(url.origin + url.pathname).toBe(`${hosted.domain}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "cliente123",
      redirect_uri: CALLBACK,
      identity_provider: "SignInWithApple",
      scope: "openid email profile aws.cognito.signin.user.admin",
      state: "s".repeat(32),
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    });
  });

  it("names Cognito's identity providers", () => {
    const provider = (id: "amazon" | "facebook" | "google") =>
      new URL(
        authorizeUrl({ hosted, redirectUri: CALLBACK, provider: id, state: "", challenge: "" }),
      ).searchParams.get("identity_provider");
    expect([provider("amazon"), provider("facebook"), provider("google")]).toEqual([
      "LoginWithAmazon",
      "Facebook",
      "Google",
    ]);
  });

  it("logs out at the hosted domain and comes back to the given address", () => {
    const url = new URL(logoutUrl(hosted, "https://tienda.example.mx/"));
    expect(url.pathname).toBe("/logout");
    expect(url.searchParams.get("client_id")).toBe("cliente123");
    expect(url.searchParams.get("logout_uri")).toBe("https://tienda.example.mx/");
  });

  it("maps the hosted pages' errors: access_denied is a cancellation", () => {
    expect(callbackErrorKey("access_denied")).toBe("cancelled");
    expect(callbackErrorKey("server_error")).toBe("providerError");
  });
});

describe("exchangeCode", () => {
  const input = { hosted, code: "codigo", redirectUri: CALLBACK, verifier: "v".repeat(128) };

  it("POSTs the code, client, redirect_uri and verifier as a form, and reads the tokens", async () => {
    const fetch = vi.fn(async (_url: URL | RequestInfo, _init?: RequestInit) =>
      jsonResponse(200, {
        access_token: accessToken,
        id_token: idToken,
        refresh_token: "refresco",
        token_type: "Bearer",
        expires_in: 3600,
      }),
    );
    const result = await exchangeCode({ ...input, timeoutMs: 1000, fetch });
    expect(result).toEqual({
      ok: true,
      result: { AccessToken: accessToken, IdToken: idToken, RefreshToken: "refresco" },
    });
    const [url, init] = fetch.mock.calls[0];
    expect(String(url)).toBe(`${hosted.domain}/oauth2/token`);
    expect(init?.method).toBe("POST");
    expect((init?.headers as Record<string, string>)["Content-Type"]).toBe(
      "application/x-www-form-urlencoded",
    );
    expect((init?.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(String(init?.body)))).toEqual({
      grant_type: "authorization_code",
      client_id: "cliente123",
      code: "codigo",
      redirect_uri: CALLBACK,
      code_verifier: "v".repeat(128),
    });
  });

  it("authenticates with HTTP Basic when the app client has a secret", async () => {
    const fetch = vi.fn(async (_url: URL | RequestInfo, _init?: RequestInit) =>
      jsonResponse(200, { access_token: accessToken, id_token: idToken }),
    );
    await exchangeCode({ ...input, timeoutMs: 1000, clientSecret: "secreto", fetch });
    const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(
      `Basic ${Buffer.from("cliente123:secreto").toString("base64")}`,
    );
  });

  it.each([
    [
      "an answer without an access token",
      jsonResponse(200, { id_token: idToken }),
      "noAccessToken",
    ],
    ["an answer that is not JSON", new Response("<html>", { status: 200 }), "noAccessToken"],
    [
      "invalid_grant (a spent, expired or foreign code)",
      jsonResponse(400, { error: "invalid_grant" }),
      "codeRejected",
    ],
    ["invalid_client", jsonResponse(401, { error: "invalid_client" }), "codeRejected"],
    ["a server error", jsonResponse(503, {}), "network"],
  ])("maps %s to its message key", async (_name, response, key) => {
    const result = await exchangeCode({ ...input, timeoutMs: 1000, fetch: async () => response });
    expect(result).toMatchObject({ ok: false, key });
  });

  it("answers an unreachable domain with the try-again key, never a throw", async () => {
    const fetch = async () => {
      throw new TypeError("fetch failed");
    };
    await expect(exchangeCode({ ...input, timeoutMs: 1000, fetch })).resolves.toEqual({
      ok: false,
      key: "network",
      cause: "TypeError",
    });
  });
});

const secrets = ["o".repeat(40)];
const cookies = {
  authOauth: createSealedCookie({
    name: "auth_oauth",
    secrets,
    secure: false,
    maxAgeSeconds: 600,
    schema: oauthTransactionSchema,
  }),
  flash: createSealedCookie({ name: "flash", secrets, secure: false, schema: flashSchema }),
  authSession: createSealedCookie({
    name: "auth_session",
    secrets,
    secure: false,
    schema: sessionTokensSchema,
  }),
  authPending: createSealedCookie({
    name: "auth_pending",
    secrets,
    secure: false,
    schema: pendingSignInSchema,
  }),
};

/** A request's context with the cookies a browser holding `transaction` would send. */
function contextWith(transaction: OAuthTransaction | null, jar?: CookieJar) {
  let cookieHeader: string | null = null;
  if (transaction) {
    const [line] = cookies.authOauth.write(transaction, null);
    cookieHeader = line.split(";")[0];
  }
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const getUser = vi.fn(async () => ({
    Username: "Google_1",
    UserAttributes: [
      { Name: "email", Value: "ana@example.mx" },
      { Name: "email_verified", Value: "true" },
    ],
  }));
  const context = {
    jar: jar ?? createCookieJar(cookieHeader),
    cookies,
    session: null,
    logger,
    requestId: "prueba",
    config: {
      publicOrigin: "https://tienda.example.mx",
      COGNITO_TIMEOUT_MS: 1000,
      SOCIAL_PROVIDERS: ["google", "facebook"],
    },
    identity: {
      hostedUi: async () => hosted,
      client: { getUser },
      rateLimiter: RateLimiter.inMemory(),
    },
  } as unknown as RequestContext;
  return { context, logger, getUser };
}

const transaction = (extra: Partial<OAuthTransaction> = {}): OAuthTransaction => ({
  state: "E".repeat(32),
  verifier: "V".repeat(128),
  provider: "google",
  redirectTo: "/my-account/recarga",
  expiresAt: Date.now() + 60_000,
  ...extra,
});

const callback = (query: string) =>
  new Request(`https://tienda.example.mx/auth/oauth/callback?${query}`);

function flashOf(context: RequestContext) {
  return context.jar.get(context.cookies.flash);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("startSocialSignIn", () => {
  it("keeps state, verifier and destination in the sealed cookie and sends the browser to authorize", async () => {
    const { context } = contextWith(null);
    const response = await startSocialSignIn(
      context,
      new Request("https://tienda.example.mx/auth/oauth/google?redirectTo=%2Fmy-account%2Frecarga"),
      "google",
    );
    expect(response.status).toBe(302);
    const kept = context.jar.get(context.cookies.authOauth)!;
    expect(kept.state).toHaveLength(32);
    expect(kept.verifier).toHaveLength(128);
    expect(kept.redirectTo).toBe("/my-account/recarga");
    const location = new URL(response.headers.get("Location")!);
    expect(location.searchParams.get("state")).toBe(kept.state);
    expect(location.searchParams.get("code_challenge")).toBe(s256(kept.verifier));
    expect(location.searchParams.get("redirect_uri")).toBe(CALLBACK);
    // The cookie is sealed: neither the verifier nor the state can be read from it.
    const line = context.jar.setCookieHeaders({ redirect: true }).join("\n");
    expect(line).toContain("Max-Age=600");
    expect(line).not.toContain(kept.verifier);
    expect(line).not.toContain(kept.state);
  });

  it("answers 404 for a provider that is not configured or unknown", async () => {
    const { context } = contextWith(null);
    for (const provider of ["apple", "myspace", undefined]) {
      const refused = await startSocialSignIn(
        context,
        new Request("https://tienda.example.mx/auth/oauth/x"),
        provider,
      ).catch((thrown: unknown) => thrown);
      expect((refused as { init: { status: number } }).init.status).toBe(404);
    }
  });
});

describe("finishSocialSignIn", () => {
  it("refuses a state that does not match the cookie's, without exchanging the code", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const { context } = contextWith(transaction());
    const response = await finishSocialSignIn(context, callback(`code=c&state=${"X".repeat(32)}`));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(
      "/auth/sign-in?redirectTo=%2Fmy-account%2Frecarga",
    );
    expect(flashOf(context)).toEqual({ kind: "error", key: "auth:social.errors.stateMismatch" });
    expect(fetch).not.toHaveBeenCalled();
    expect(context.jar.get(context.cookies.authSession)).toBeNull();
    expect(context.jar.get(context.cookies.authOauth)).toBeNull();
  });

  it("refuses an answer when the browser holds no transaction (or an expired one)", async () => {
    for (const held of [null, transaction({ expiresAt: Date.now() - 1 })]) {
      const { context } = contextWith(held);
      const response = await finishSocialSignIn(
        context,
        callback(`code=c&state=${"E".repeat(32)}`),
      );
      expect(response.headers.get("Location")).toMatch(/^\/auth\/sign-in/);
      expect(flashOf(context)?.key).toBe("auth:social.errors.stateMismatch");
    }
  });

  it("shows a cancellation (access_denied) as such", async () => {
    const { context } = contextWith(transaction());
    const response = await finishSocialSignIn(
      context,
      callback(`error_description=User+cancelled&error=access_denied&state=${"E".repeat(32)}`),
    );
    expect(response.headers.get("Location")).toBe(
      "/auth/sign-in?redirectTo=%2Fmy-account%2Frecarga",
    );
    expect(flashOf(context)?.key).toBe("auth:social.errors.cancelled");
  });

  it("signs nobody in when the token endpoint gives no access token", async () => {
    vi.stubGlobal("fetch", async () => jsonResponse(200, { id_token: idToken }));
    const { context, logger } = contextWith(transaction());
    const response = await finishSocialSignIn(context, callback(`code=c&state=${"E".repeat(32)}`));
    expect(response.headers.get("Location")).toMatch(/^\/auth\/sign-in/);
    expect(flashOf(context)?.key).toBe("auth:social.errors.noAccessToken");
    expect(context.jar.get(context.cookies.authSession)).toBeNull();
    // Nothing secret in the log: only what happened.
    const logged = JSON.stringify(logger.info.mock.calls);
    expect(logged).not.toContain("E".repeat(32));
    expect(logged).not.toContain("V".repeat(128));
  });

  it("answers an unreachable token endpoint with the try-again message", async () => {
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("fetch failed");
    });
    const { context } = contextWith(transaction());
    const response = await finishSocialSignIn(context, callback(`code=c&state=${"E".repeat(32)}`));
    expect(response.status).toBe(303);
    expect(flashOf(context)?.key).toBe("auth:social.errors.network");
  });

  it("exchanges the code with the kept verifier and starts the session like a password sign-in", async () => {
    const fetch = vi.fn(async (_url: URL | RequestInfo, _init?: RequestInit) =>
      jsonResponse(200, { access_token: accessToken, id_token: idToken, refresh_token: "r" }),
    );
    vi.stubGlobal("fetch", fetch);
    const { context, getUser } = contextWith(transaction());
    const response = await finishSocialSignIn(context, callback(`code=c1&state=${"E".repeat(32)}`));
    expect(response.headers.get("Location")).toBe("/my-account/recarga");
    const body = new URLSearchParams(String(fetch.mock.calls[0][1]?.body));
    expect(body.get("code")).toBe("c1");
    expect(body.get("code_verifier")).toBe("V".repeat(128));
    expect(getUser).toHaveBeenCalledWith(accessToken);
    const session = context.jar.get(context.cookies.authSession)!;
    expect(session.signInDetails).toEqual({
      loginId: "ana@example.mx",
      authFlowType: OAUTH_AUTH_FLOW,
    });
    expect(context.session?.customer.email).toBe("ana@example.mx");
    expect(flashOf(context)?.key).toBe("auth:flash.signedIn");
    expect(context.jar.get(context.cookies.authOauth)).toBeNull();
    // The hosted domain ends the social session on sign-out.
    expect(await hostedLogoutUrl(context)).toBe(
      `${hosted.domain}/logout?client_id=cliente123&logout_uri=https%3A%2F%2Ftienda.example.mx%2F`,
    );
  });
});
