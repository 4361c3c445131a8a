import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { getFixedT } from "~/i18n/i18n.server";

/**
 * The embedded emulator's stand-in for Cognito's hosted OAuth 2.0 endpoints (decision 0069),
 * started beside cognito-local on its own loopback port only when social sign-in is configured:
 *
 * - `GET /oauth2/authorize` checks the request as Cognito does (client, registered redirect_uri,
 *   a known identity provider, PKCE S256) and shows a small test-provider page in place of
 *   Google, Facebook…: an e-mail field, a "verified" box, "Continuar" (a form) and "Cancelar"
 *   (a link), all working without JavaScript. No real provider is ever contacted.
 * - `POST /oauth2/authorize` creates or reuses the federated user (`Google_<id>`, as Cognito
 *   names them) in the emulator's pool and returns a single-use code, valid 5 minutes, to the
 *   redirect_uri with the state. The e-mail is verified only when the tester ticked the box —
 *   what a real provider's `email_verified`, mapped by the pool, says at every sign-in; nobody
 *   proved a typed address, so by default it is not (decision 0081).
 * - `POST /oauth2/token` exchanges the code (form body) only with the same client and
 *   redirect_uri and a verifier whose S256 is the challenge; the tokens come from cognito-local's
 *   own generator and the refresh token is stored on the user, so GetUser, refresh and
 *   revocation keep working against the emulator.
 * - `GET /logout` returns to a registered logout_uri.
 *
 * Codes, verifiers, states and tokens are never logged.
 */

export interface HostedUiOptions {
  /** The app's registered callback addresses (exact match, as Cognito's "Allowed callback URLs"). */
  callbackUrls: string[];
  /** The app's registered sign-out addresses. */
  logoutUrls: string[];
}

// The parts of cognito-local used here, typed by what this module relies on.
interface HostedUser {
  Username: string;
  Attributes: Array<{ Name: string; Value?: string }>;
  [field: string]: unknown;
}
interface HostedContext {
  logger: unknown;
}
interface HostedPool {
  getUserByUsername(ctx: HostedContext, username: string): Promise<HostedUser | null>;
  saveUser(ctx: HostedContext, user: HostedUser): Promise<void>;
}
interface HostedCognito {
  getUserPoolForClientId(ctx: HostedContext, clientId: string): Promise<HostedPool>;
  getAppClient(ctx: HostedContext, clientId: string): Promise<unknown>;
}
export interface HostedUiTokenGenerator {
  generate(
    ctx: HostedContext,
    user: HostedUser,
    groups: string[],
    client: unknown,
    clientMetadata: undefined,
    source: string,
  ): Promise<{ AccessToken: string; IdToken: string; RefreshToken: string }>;
}

/** Cognito's identity-provider names → the word the test page shows. */
const PROVIDERS: Record<string, string> = {
  Google: "Google",
  Facebook: "Facebook",
  LoginWithAmazon: "Amazon",
  SignInWithApple: "Apple",
};

/** Cognito's authorization codes live 5 minutes; the test page waits 10 (the app's cookie). */
const CODE_TTL_MS = 5 * 60 * 1000;
const PAGE_TTL_MS = 10 * 60 * 1000;
const BODY_LIMIT_BYTES = 64 * 1024;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

interface AuthorizeRequest {
  redirectUri: string;
  identityProvider: string;
  state: string | null;
  challenge: string;
  scope: string[];
}

interface IssuedCode {
  username: string;
  redirectUri: string;
  challenge: string;
  scope: string[];
  expiresAt: number;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!,
  );

/** A provider's stable user id for an e-mail: the same person gets the same account again. */
export function federatedUsername(identityProvider: string, email: string): string {
  const digest = createHash("sha256").update(`${identityProvider}|${email.toLowerCase()}`).digest();
  return `${identityProvider}_${digest.readBigUInt64BE(0).toString().padStart(20, "0")}`;
}

export function s256Matches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier, "ascii").digest("base64url"));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

function readBody(request: IncomingMessage): Promise<URLSearchParams | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    request.on("error", () => resolve(null));
  });
}

export async function startHostedUi(
  options: HostedUiOptions & {
    cognito: HostedCognito;
    tokenGenerator: HostedUiTokenGenerator;
    ctx: HostedContext;
    clientId: string;
    logger: Logger;
  },
): Promise<{ origin: string; close(): Promise<void> }> {
  const t = getFixedT("auth");
  const pages = new Map<string, AuthorizeRequest & { expiresAt: number }>();
  const codes = new Map<string, IssuedCode>();

  function sweep(now: number) {
    for (const [key, value] of pages) if (value.expiresAt <= now) pages.delete(key);
    for (const [key, value] of codes) if (value.expiresAt <= now) codes.delete(key);
  }

  function html(response: ServerResponse, status: number, title: string, body: string) {
    response.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    });
    response.end(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem">${body}</body></html>`,
    );
  }

  /** What Cognito shows for a request it will not send anywhere (no redirect: the address may be foreign). */
  function invalidRequest(response: ServerResponse, reason: string) {
    const title = t("social.stub.invalidTitle");
    html(
      response,
      400,
      title,
      `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t("social.stub.invalidRequest", { reason }))}</p>`,
    );
  }

  function json(response: ServerResponse, status: number, body: object) {
    response.writeHead(status, {
      "Content-Type": "application/json;charset=UTF-8",
      "Cache-Control": "no-store",
      Pragma: "no-cache",
    });
    response.end(JSON.stringify(body));
  }

  function withParams(base: string, params: Record<string, string | null>) {
    const url = new URL(base);
    for (const [name, value] of Object.entries(params)) {
      if (value !== null) url.searchParams.set(name, value);
    }
    return url.toString();
  }

  function parseAuthorize(query: URLSearchParams): AuthorizeRequest | string {
    if (query.get("response_type") !== "code") return "unsupported_response_type";
    if (query.get("client_id") !== options.clientId) return "invalid_client";
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!options.callbackUrls.includes(redirectUri)) return "redirect_mismatch";
    const identityProvider = query.get("identity_provider") ?? "";
    if (!PROVIDERS[identityProvider]) return "unsupported_identity_provider";
    const challenge = query.get("code_challenge") ?? "";
    if (query.get("code_challenge_method") !== "S256" || !CHALLENGE.test(challenge)) {
      return "invalid_request (PKCE S256)";
    }
    const scope = (query.get("scope") ?? "").split(/\s+/).filter(Boolean);
    return { redirectUri, identityProvider, state: query.get("state"), challenge, scope };
  }

  function providerPage(response: ServerResponse, pageId: string, request: AuthorizeRequest) {
    const provider = PROVIDERS[request.identityProvider];
    const title = t("social.stub.title", { provider });
    const cancel = withParams(request.redirectUri, {
      error_description: "User cancelled the login",
      error: "access_denied",
      state: request.state,
    });
    html(
      response,
      200,
      title,
      `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t("social.stub.intro", { provider }))}</p>
<form method="post" action="/oauth2/authorize">
<input type="hidden" name="page" value="${escapeHtml(pageId)}">
<p><label for="email">${escapeHtml(t("social.stub.email", { provider }))}</label><br>
<input id="email" name="email" type="email" required autocomplete="email" style="width:100%;padding:.5rem"></p>
<p><input id="email_verified" name="email_verified" type="checkbox" value="true" aria-describedby="email_verified_hint">
<label for="email_verified">${escapeHtml(t("social.stub.verified", { provider }))}</label><br>
<small id="email_verified_hint">${escapeHtml(t("social.stub.verifiedHint", { provider }))}</small></p>
<p><button type="submit">${escapeHtml(t("social.stub.continue"))}</button></p>
</form>
<p><a href="${escapeHtml(cancel)}">${escapeHtml(t("social.stub.cancel"))}</a></p>`,
    );
  }

  /**
   * The federated user of this provider and e-mail, created on first sign-in as Cognito does;
   * `email_verified` is written at every sign-in, as a mapped attribute is.
   */
  async function federatedUser(
    identityProvider: string,
    email: string,
    emailVerified: boolean,
  ): Promise<string> {
    const pool = await options.cognito.getUserPoolForClientId(options.ctx, options.clientId);
    const username = federatedUsername(identityProvider, email);
    const verified = { Name: "email_verified", Value: String(emailVerified) };
    const existing = await pool.getUserByUsername(options.ctx, username);
    if (existing) {
      await pool.saveUser(options.ctx, {
        ...existing,
        Attributes: [
          ...existing.Attributes.filter((attribute) => attribute.Name !== verified.Name),
          verified,
        ],
        UserLastModifiedDate: new Date(),
      });
      return existing.Username;
    }
    const now = new Date();
    const providerUserId = username.slice(identityProvider.length + 1);
    await pool.saveUser(options.ctx, {
      Username: username,
      Attributes: [
        { Name: "sub", Value: randomUUID() },
        { Name: "email", Value: email },
        verified,
        {
          Name: "identities",
          Value: JSON.stringify([
            {
              userId: providerUserId,
              providerName: identityProvider,
              providerType: identityProvider,
              issuer: null,
              primary: true,
              dateCreated: now.getTime(),
            },
          ]),
        },
      ],
      Enabled: true,
      UserStatus: "EXTERNAL_PROVIDER",
      UserCreateDate: now,
      UserLastModifiedDate: now,
      RefreshTokens: [],
    });
    return username;
  }

  async function approve(response: ServerResponse, body: URLSearchParams) {
    const page = pages.get(body.get("page") ?? "");
    const email = (body.get("email") ?? "").trim();
    if (!page) return invalidRequest(response, "expired");
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return providerPage(response, body.get("page")!, page);
    }
    pages.delete(body.get("page")!);
    const username = await federatedUser(
      page.identityProvider,
      email,
      body.get("email_verified") === "true",
    );
    const code = randomUUID();
    codes.set(code, {
      username,
      redirectUri: page.redirectUri,
      challenge: page.challenge,
      scope: page.scope,
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    response.writeHead(302, {
      Location: withParams(page.redirectUri, { code, state: page.state }),
      "Cache-Control": "no-store",
    });
    response.end();
  }

  async function token(response: ServerResponse, body: URLSearchParams) {
    if (body.get("grant_type") !== "authorization_code") {
      return json(response, 400, { error: "unsupported_grant_type" });
    }
    if (body.get("client_id") !== options.clientId) {
      return json(response, 401, { error: "invalid_client" });
    }
    const codeValue = body.get("code") ?? "";
    const issued = codes.get(codeValue);
    // Single use: whatever the outcome, the code is spent.
    codes.delete(codeValue);
    if (
      !issued ||
      issued.expiresAt <= Date.now() ||
      body.get("redirect_uri") !== issued.redirectUri ||
      !s256Matches(body.get("code_verifier") ?? "", issued.challenge)
    ) {
      return json(response, 400, { error: "invalid_grant" });
    }
    const pool = await options.cognito.getUserPoolForClientId(options.ctx, options.clientId);
    const user = await pool.getUserByUsername(options.ctx, issued.username);
    const client = await options.cognito.getAppClient(options.ctx, options.clientId);
    if (!user || !client) return json(response, 400, { error: "invalid_grant" });
    const tokens = await options.tokenGenerator.generate(
      options.ctx,
      user,
      [],
      client,
      undefined,
      "Authentication",
    );
    const refreshTokens = Array.isArray(user.RefreshTokens) ? (user.RefreshTokens as string[]) : [];
    await pool.saveUser(options.ctx, {
      ...user,
      RefreshTokens: [...refreshTokens, tokens.RefreshToken],
    });
    json(response, 200, {
      access_token: tokens.AccessToken,
      // Cognito issues an id token only for the openid scope.
      ...(issued.scope.includes("openid") ? { id_token: tokens.IdToken } : {}),
      refresh_token: tokens.RefreshToken,
      token_type: "Bearer",
      expires_in: 3600,
    });
  }

  function logout(response: ServerResponse, query: URLSearchParams) {
    const logoutUri = query.get("logout_uri") ?? "";
    if (query.get("client_id") !== options.clientId)
      return invalidRequest(response, "invalid_client");
    if (!options.logoutUrls.includes(logoutUri)) return invalidRequest(response, "logout_mismatch");
    response.writeHead(302, { Location: logoutUri, "Cache-Control": "no-store" });
    response.end();
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    sweep(Date.now());
    const handle = async () => {
      if (request.method === "GET" && url.pathname === "/oauth2/authorize") {
        const parsed = parseAuthorize(url.searchParams);
        if (typeof parsed === "string") return invalidRequest(response, parsed);
        const pageId = randomBytes(16).toString("base64url");
        pages.set(pageId, { ...parsed, expiresAt: Date.now() + PAGE_TTL_MS });
        return providerPage(response, pageId, parsed);
      }
      if (
        request.method === "POST" &&
        ["/oauth2/authorize", "/oauth2/token"].includes(url.pathname)
      ) {
        const body = await readBody(request);
        if (!body) return json(response, 413, { error: "invalid_request" });
        return url.pathname === "/oauth2/token" ? token(response, body) : approve(response, body);
      }
      if (request.method === "GET" && url.pathname === "/logout") {
        return logout(response, url.searchParams);
      }
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      response.end("Not found");
    };
    handle().catch((error: unknown) => {
      options.logger.error({ err: error, path: url.pathname }, "hosted sign-in stand-in failed");
      if (!response.headersSent) json(response, 500, { error: "server_error" });
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  options.logger.info({ origin }, "hosted sign-in stand-in (social sign-in) started");
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
