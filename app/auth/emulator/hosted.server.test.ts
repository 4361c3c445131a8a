import { createPublicKey, verify } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import publicKeyFile from "cognito-local/lib/keys/cognitoLocal.public.json";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCognitoClient } from "../cognito.server";
import { federatedUsername, s256Matches } from "./hosted.server";
import { startEmbeddedCognito, type EmbeddedCognito } from "./emulator.server";
import { Outbox } from "./outbox.server";
import { createPkcePair, createState, s256 } from "../oauth.server";
import { decodeJwtPayload } from "../tokens";

const APP = "http://localhost:3999";
const CALLBACK = `${APP}/auth/oauth/callback`;
const logger = pino({ level: "silent" });
const publicJwk = publicKeyFile.jwk;

let emulator: EmbeddedCognito;
let hosted: string;

beforeAll(async () => {
  emulator = await startEmbeddedCognito({
    dataDir: mkdtempSync(path.join(tmpdir(), "hosted-ui-")),
    logger,
    outbox: new Outbox(),
    passwordPolicy: {
      minLength: 8,
      requireLowercase: true,
      requireUppercase: true,
      requireNumbers: true,
      requireSymbols: true,
    },
    hostedUi: { callbackUrls: [CALLBACK], logoutUrls: [`${APP}/`] },
  });
  hosted = emulator.hostedOrigin!;
}, 30_000);

afterAll(async () => {
  await emulator?.close();
});

function authorizeQuery(overrides: Record<string, string | null> = {}) {
  const pkce = createPkcePair();
  const state = createState();
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: emulator.target.clientId,
    redirect_uri: CALLBACK,
    identity_provider: "Google",
    scope: "openid email profile aws.cognito.signin.user.admin",
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  return { query, pkce, state };
}

/**
 * Authorize, then "Continuar" on the test page as `email` (the "verified" box ticked when
 * `vouched`): the code and state sent back.
 */
async function signInAtProvider(email: string, provider = "Google", vouched = false) {
  const { query, pkce, state } = authorizeQuery({ identity_provider: provider });
  const page = await fetch(`${hosted}/oauth2/authorize?${query}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const pageId = /name="page" value="([^"]+)"/.exec(html)![1];
  const approved = await fetch(`${hosted}/oauth2/authorize`, {
    method: "POST",
    body: new URLSearchParams({
      page: pageId,
      email,
      ...(vouched ? { email_verified: "true" } : {}),
    }),
    redirect: "manual",
  });
  expect(approved.status).toBe(302);
  const back = new URL(approved.headers.get("Location")!);
  expect(back.origin + back.pathname).toBe(CALLBACK);
  expect(back.searchParams.get("state")).toBe(state);
  return { code: back.searchParams.get("code")!, verifier: pkce.verifier, html };
}

function token(fields: Record<string, string>) {
  return fetch(`${hosted}/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: emulator.target.clientId,
      redirect_uri: CALLBACK,
      ...fields,
    }),
  });
}

describe("the emulator's hosted sign-in stand-in", () => {
  it("checks S256 as RFC 7636 defines it", () => {
    expect(
      s256Matches(
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      ),
    ).toBe(true);
    const verifier = "a".repeat(128);
    expect(s256Matches(verifier, s256("b".repeat(128)))).toBe(false);
    expect(s256Matches("short", s256("short"))).toBe(false);
  });

  it.each([
    [
      "an unregistered redirect_uri",
      { redirect_uri: "https://otro.example/cb" },
      "redirect_mismatch",
    ],
    ["another client", { client_id: "otro" }, "invalid_client"],
    ["an unknown provider", { identity_provider: "MySpace" }, "unsupported_identity_provider"],
    ["no PKCE", { code_challenge: null, code_challenge_method: null }, "PKCE"],
    ["plain PKCE", { code_challenge_method: "plain" }, "PKCE"],
  ])("refuses %s with a page, never a redirect", async (_name, overrides, reason) => {
    const { query } = authorizeQuery(overrides);
    const response = await fetch(`${hosted}/oauth2/authorize?${query}`, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(reason);
  });

  it("shows a Spanish test-provider page with Continuar and a Cancelar link carrying access_denied and the state", async () => {
    const { query, state } = authorizeQuery({ identity_provider: "Facebook" });
    const html = await (await fetch(`${hosted}/oauth2/authorize?${query}`)).text();
    expect(html).toContain('lang="es"');
    expect(html).toContain("Proveedor de prueba: Facebook");
    expect(html).toContain(">Continuar</button>");
    const cancel = new URL(/href="([^"]+)">Cancelar/.exec(html)![1].replace(/&amp;/g, "&"));
    expect(cancel.origin + cancel.pathname).toBe(CALLBACK);
    expect(cancel.searchParams.get("error")).toBe("access_denied");
    expect(cancel.searchParams.get("state")).toBe(state);
  });

  it("exchanges a code once, only with the right verifier, for tokens the emulator's API accepts", async () => {
    const email = `social.${Date.now()}@example.mx`;
    const { code, verifier } = await signInAtProvider(email);

    const wrong = await token({ code, code_verifier: createPkcePair().verifier });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "invalid_grant" });
    // The failed attempt spent the code.
    const again = await token({ code, code_verifier: verifier });
    expect(await again.json()).toEqual({ error: "invalid_grant" });

    const second = await signInAtProvider(email);
    const otherRedirect = await token({
      code: second.code,
      code_verifier: second.verifier,
      redirect_uri: `${APP}/otra`,
    });
    expect(await otherRedirect.json()).toEqual({ error: "invalid_grant" });

    const third = await signInAtProvider(email);
    const foreignClient = await token({
      code: third.code,
      code_verifier: third.verifier,
      client_id: "otro",
    });
    expect(foreignClient.status).toBe(401);

    const fourth = await signInAtProvider(email, "Google", true);
    const granted = await token({ code: fourth.code, code_verifier: fourth.verifier });
    expect(granted.status).toBe(200);
    const tokens = (await granted.json()) as Record<string, string>;
    expect(tokens.token_type).toBe("Bearer");
    const idClaims = decodeJwtPayload(tokens.id_token)!;
    expect(idClaims.email).toBe(email);
    expect(idClaims.email_verified).toBe(true);
    expect(idClaims["cognito:username"]).toBe(federatedUsername("Google", email));
    expect(String(idClaims["cognito:username"])).toMatch(/^Google_\d{20}$/);
    // A spent code stays spent after a success too.
    expect((await token({ code: fourth.code, code_verifier: fourth.verifier })).status).toBe(400);

    const client = createCognitoClient({
      target: async () => emulator.target,
      authFlow: "USER_PASSWORD_AUTH",
      timeoutMs: 5000,
      logger,
    });
    const user = await client.getUser(tokens.access_token);
    expect(user.Username).toBe(federatedUsername("Google", email));
    const refreshed = await client.refresh(tokens.refresh_token);
    expect(decodeJwtPayload(refreshed.IdToken)!.email).toBe(email);
    await client.revokeToken(tokens.refresh_token);
    await expect(client.refresh(tokens.refresh_token)).rejects.toMatchObject({
      name: "CognitoError",
    });
  });

  it("vouches for the typed e-mail only when the tester ticks the box, at each sign-in, as Cognito's ID token says it", async () => {
    const email = `aval.${Date.now()}@example.mx`;
    const { html } = await signInAtProvider(email);
    expect(html).toMatch(
      /<input id="email_verified" name="email_verified" type="checkbox" value="true"[^>]*>\n<label for="email_verified">Google confirma que este correo es de esta cuenta/,
    );
    expect(html).not.toMatch(/name="email_verified"[^>]*checked/);
    const idClaimsAfter = async (vouched: boolean) => {
      const { code, verifier } = await signInAtProvider(email, "Google", vouched);
      const tokens = (await (await token({ code, code_verifier: verifier })).json()) as {
        id_token: string;
      };
      const [header, payload, signature] = tokens.id_token.split(".");
      // Still signed with the emulator's own key.
      const publicKey = createPublicKey({ key: publicJwk, format: "jwk" });
      expect(
        verify(
          "sha256",
          Buffer.from(`${header}.${payload}`),
          publicKey,
          Buffer.from(signature, "base64url"),
        ),
      ).toBe(true);
      return decodeJwtPayload(tokens.id_token)!;
    };
    const unvouched = await idClaimsAfter(false);
    expect(unvouched.email_verified).toBe(false);
    // A federated user's ID token names its provider, as Cognito's does.
    expect(unvouched.identities).toEqual([
      expect.objectContaining({ providerName: "Google", providerType: "Google", primary: true }),
    ]);
    expect((await idClaimsAfter(true)).email_verified).toBe(true);
    // The provider's word is written again at every sign-in.
    expect((await idClaimsAfter(false)).email_verified).toBe(false);
  });

  it("returns the same federated user for the same provider and e-mail", async () => {
    const email = `repite.${Date.now()}@example.mx`;
    const subs: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const { code, verifier } = await signInAtProvider(email);
      const tokens = (await (await token({ code, code_verifier: verifier })).json()) as {
        id_token: string;
      };
      subs.push(decodeJwtPayload(tokens.id_token)!.sub);
    }
    expect(subs[0]).toBe(subs[1]);
  });

  it("logs out to a registered address only", async () => {
    const clientId = emulator.target.clientId;
    const ok = await fetch(
      `${hosted}/logout?${new URLSearchParams({ client_id: clientId, logout_uri: `${APP}/` })}`,
      { redirect: "manual" },
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe(`${APP}/`);
    const foreign = await fetch(
      `${hosted}/logout?${new URLSearchParams({ client_id: clientId, logout_uri: "https://malo.example/" })}`,
      { redirect: "manual" },
    );
    expect(foreign.status).toBe(400);
  });
});
