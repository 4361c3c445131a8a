import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCookieJar, type CookieJar } from "~/lib/cookie-jar.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { loadConfig } from "~/config.server";
import type { RequestContext, Services } from "~/context";
import { createServices } from "~/services.server";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dropRevokedAccess, revokeBrowserAccess } from "./browser-access.server";
import { signOutAccountEverywhere } from "./revoked-access.server";
import type { SessionTokens } from "./tokens";

let services: Services;
let db: Db;
beforeEach(async () => {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "browser-access-")),
    SESSION_SECRET: "browser-access-secret-that-is-long-enough-0123",
    // A configured pool: no emulator is started for these tests.
    COGNITO_USER_POOL_ID: "us-west-2_Ab12CdE3f",
    COGNITO_CLIENT_ID: "4l7kq2n5v8x1c3b6m9p0r2t4w6",
    COGNITO_ENDPOINT: "http://127.0.0.1:9/",
  });
  services = await createServices(config, pino({ level: "silent" }));
  db = services.db;
});
afterEach(async () => {
  await db.destroy();
});

const tokens: SessionTokens = {
  sessionId: "session-id-0123456789",
  accessToken: "a.b.c",
  idToken: "a.b.c",
  refreshToken: "r",
  clockDrift: 0,
  signInDetails: { loginId: "a@b.mx", authFlowType: "USER_SRP_AUTH" },
};

/**
 * A browser holding a session, access to an order and a portability request, a sandbox payment,
 * and a SIM it activated.
 */
function browserHeader(): string {
  const jar = createCookieJar(null);
  jar.set(services.cookies.authSession, tokens);
  jar.set(services.cookies.orderAccess, {
    accessId: "orders-id-0123456789",
    placed: [{ ref: "order-reference-0000001", cartCleared: true }],
    draft: null,
  });
  jar.set(services.cookies.portability, {
    accessId: "porta-id-0123456789",
    submitted: [],
  });
  jar.set(services.cookies.sandboxPayer, {
    accessId: "payer-id-0123456789",
    checkouts: ["chk_0123456789abcdef"],
  });
  jar.set(services.cookies.activations, {
    accessId: "activations-id-0123456789",
    started: [{ id: "activation:sim:order-reference-0000001:0", at: 1 }],
  });
  return jar
    .setCookieHeaders({ redirect: false })
    .map((line) => line.split(";")[0])
    .join("; ");
}

const held = (jar: CookieJar) => ({
  session: jar.get(services.cookies.authSession),
  orders: jar.get(services.cookies.orderAccess),
  portability: jar.get(services.cookies.portability),
  sandboxPayer: jar.get(services.cookies.sandboxPayer),
  activations: jar.get(services.cookies.activations),
});

describe("sign-out for every copy of the browser's cookies", () => {
  it("a copy saved before sign-out opens nothing afterwards, and is removed", async () => {
    const saved = browserHeader();
    const before = createCookieJar(saved);
    await dropRevokedAccess(services, before);
    expect(Object.values(held(before)).every((value) => value !== null)).toBe(true);

    const signingOut = createCookieJar(saved);
    await revokeBrowserAccess({ ...services, jar: signingOut, requestId: "r" } as RequestContext);
    expect(
      signingOut.setCookieHeaders({ redirect: true }).every((l) => l.includes("Max-Age=0")),
    ).toBe(true);

    const copy = createCookieJar(saved);
    await dropRevokedAccess(services, copy);
    expect(held(copy)).toEqual({
      session: null,
      orders: null,
      portability: null,
      sandboxPayer: null,
      activations: null,
    });
    expect(copy.setCookieHeaders({ redirect: false }).length).toBeGreaterThanOrEqual(5);
  });

  it("signs out even when the database cannot record it, and says so in the log", async () => {
    const saved = browserHeader();
    await db.destroy();
    const signingOut = createCookieJar(saved);
    const errors: unknown[] = [];
    const logger = { error: (...args: unknown[]) => errors.push(args) };
    await revokeBrowserAccess({
      ...services,
      logger,
      jar: signingOut,
      requestId: "r",
    } as unknown as RequestContext);
    expect(signingOut.setCookieHeaders({ redirect: true }).length).toBeGreaterThanOrEqual(5);
    expect(errors).toHaveLength(1);
    db = await openDatabaseUnderTest();
  });

  it("without the database, nothing is opened for the request and nothing is removed", async () => {
    const saved = browserHeader();
    await db.destroy();
    const jar = createCookieJar(saved);
    await dropRevokedAccess({ ...services, logger: pino({ level: "silent" }) }, jar);
    expect(held(jar)).toEqual({
      session: null,
      orders: null,
      portability: null,
      sandboxPayer: null,
      activations: null,
    });
    expect(jar.setCookieHeaders({ redirect: false })).toEqual([]);
    db = await openDatabaseUnderTest();
  });
});

describe("sign-out of every session of an account (decision 0134)", () => {
  const jwt = (claims: object) =>
    `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;
  const sessionOf = (authenticatedAt: number, email = "Ana@Ejemplo.mx"): SessionTokens => ({
    ...tokens,
    sessionId: `session-${authenticatedAt}-0123456789`,
    idToken: jwt({ sub: "sub-ana", email }),
    authenticatedAt,
  });
  const jarHolding = (session: SessionTokens) => {
    const jar = createCookieJar(null);
    jar.set(services.cookies.authSession, session);
    return createCookieJar(
      jar
        .setCookieHeaders({ redirect: false })
        .map((line) => line.split(";")[0])
        .join("; "),
    );
  };

  it("ends the sessions authenticated before it, copies included, and no later one", async () => {
    const signedOutAt = new Date("2026-12-07T12:00:00Z");
    const before = sessionOf(signedOutAt.getTime() - 1000);
    const after = sessionOf(signedOutAt.getTime() + 1000);
    const otherAccount = sessionOf(signedOutAt.getTime() - 1000, "otra@ejemplo.mx");
    await signOutAccountEverywhere(db, {
      email: "ana@ejemplo.mx",
      at: signedOutAt,
      keepForMs: 30 * 24 * 3600 * 1000,
    });
    const revokeToken = vi.fn(() => Promise.resolve({}));
    const withIdentity = {
      ...services,
      identity: { ...services.identity, client: { ...services.identity.client, revokeToken } },
    };

    const oldJar = jarHolding(before);
    await dropRevokedAccess(withIdentity, oldJar);
    expect(oldJar.get(services.cookies.authSession)).toBeNull();
    expect(revokeToken).toHaveBeenCalledWith(before.refreshToken);

    for (const session of [after, otherAccount]) {
      const jar = jarHolding(session);
      await dropRevokedAccess(withIdentity, jar);
      expect(jar.get(services.cookies.authSession)?.sessionId).toBe(session.sessionId);
    }
    expect(revokeToken).toHaveBeenCalledTimes(1);
  });

  it("a session from before the time was kept is judged by its ID token's auth_time", async () => {
    const signedOutAt = new Date("2026-12-07T12:00:00Z");
    await signOutAccountEverywhere(db, {
      email: "ana@ejemplo.mx",
      at: signedOutAt,
      keepForMs: 30 * 24 * 3600 * 1000,
    });
    const { authenticatedAt: _dropped, ...legacy } = sessionOf(0);
    const authTime = signedOutAt.getTime() / 1000;
    const older = {
      ...legacy,
      idToken: jwt({ sub: "s", email: "ana@ejemplo.mx", auth_time: authTime - 60 }),
    };
    const newer = {
      ...legacy,
      idToken: jwt({ sub: "s", email: "ana@ejemplo.mx", auth_time: authTime + 60 }),
    };
    const olderJar = jarHolding(older);
    await dropRevokedAccess(services, olderJar);
    expect(olderJar.get(services.cookies.authSession)).toBeNull();
    const newerJar = jarHolding(newer);
    await dropRevokedAccess(services, newerJar);
    expect(newerJar.get(services.cookies.authSession)).not.toBeNull();
  });

  it("a record is kept while a session could outlive it, then swept", async () => {
    const day = 24 * 3600 * 1000;
    const first = new Date("2026-11-01T00:00:00Z");
    await signOutAccountEverywhere(db, {
      email: "vieja@ejemplo.mx",
      at: first,
      keepForMs: 30 * day,
    });
    await signOutAccountEverywhere(db, {
      email: "ana@ejemplo.mx",
      at: new Date(first.getTime() + 31 * day),
      keepForMs: 30 * day,
    });
    const rows = await db.selectFrom("account_sign_outs").select("account_email").execute();
    expect(rows.map((row) => row.account_email)).toEqual(["ana@ejemplo.mx"]);
  });
});
