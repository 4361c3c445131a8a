import { describe, expect, it } from "vitest";
import {
  authenticatedAtOf,
  customerFromTokens,
  decodeJwtPayload,
  maskDestination,
  measureClockDrift,
  refreshDue,
} from "./tokens";

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (payload: Record<string, unknown>) =>
  `${base64url({ alg: "RS256", kid: "k" })}.${base64url(payload)}.signature`;

describe("tokens", () => {
  it("reads a JWT's claims, including non-ASCII text, and refuses anything else", () => {
    expect(decodeJwtPayload(jwt({ sub: "1", name: "Ñandú Pérez" }))).toEqual({
      sub: "1",
      name: "Ñandú Pérez",
    });
    expect(decodeJwtPayload("a.b.c.d.e")).toBeNull();
    expect(decodeJwtPayload("a.!!!.c")).toBeNull();
  });

  it("measures Cognito's clock against ours from the issue time", () => {
    expect(measureClockDrift(jwt({ iat: 1_000 }), 995_000)).toBe(5_000);
    expect(measureClockDrift("not-a-jwt", 0)).toBe(0);
  });

  it("asks for a refresh five minutes before the access token expires, on Cognito's clock", () => {
    const now = 1_700_000_000_000;
    const expiresIn = (seconds: number) => jwt({ exp: now / 1000 + seconds });
    expect(refreshDue({ accessToken: expiresIn(3600), clockDrift: 0 }, now)).toBe(false);
    expect(refreshDue({ accessToken: expiresIn(299), clockDrift: 0 }, now)).toBe(true);
    // Cognito's clock 10 minutes ahead: a token with 12 minutes left on ours has 2 on theirs.
    expect(refreshDue({ accessToken: expiresIn(720), clockDrift: 600_000 }, now)).toBe(true);
    expect(refreshDue({ accessToken: "garbage", clockDrift: 0 }, now)).toBe(true);
  });

  it("reads the customer (sub, email, verified) from the id token", () => {
    expect(
      customerFromTokens({
        idToken: jwt({
          sub: "abc",
          email: "ana@ejemplo.mx",
          email_verified: true,
          "cognito:username": "uuid-1",
        }),
      }),
    ).toEqual({
      sub: "abc",
      email: "ana@ejemplo.mx",
      emailVerified: true,
      identityProviders: [],
      username: "uuid-1",
    });
    expect(customerFromTokens({ idToken: jwt({ sub: "abc" }) })).toBeNull();
  });

  it("names the identity providers of a federated user from Cognito's identities claim", () => {
    const federated = (identities: unknown) =>
      customerFromTokens({
        idToken: jwt({ sub: "abc", email: "ana@ejemplo.mx", email_verified: true, identities }),
      })?.identityProviders;
    const google = { userId: "1", providerName: "Google", providerType: "Google", primary: "true" };
    expect(federated([google])).toEqual(["Google"]);
    expect(federated(JSON.stringify([google, { ...google, providerName: "Facebook" }]))).toEqual([
      "Google",
      "Facebook",
    ]);
    expect(federated("not json")).toEqual([]);
    expect(federated([{ providerName: 7 }, null])).toEqual([]);
  });

  it("masks where a code went", () => {
    expect(maskDestination("ana@ejemplo.mx")).toBe("a***@ejemplo.mx");
    expect(maskDestination("+525512345678")).toBe("*********5678");
  });
});

describe("when a session's customer last authenticated", () => {
  const idToken = (claims: object) =>
    `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;
  it("is what the session recorded, else the ID token's auth_time on this server's clock, else never", () => {
    expect(authenticatedAtOf({ authenticatedAt: 5, idToken: "a.b.c", clockDrift: 0 })).toBe(5);
    expect(authenticatedAtOf({ idToken: idToken({ auth_time: 1_000 }), clockDrift: 2_000 })).toBe(
      1_000_000 - 2_000,
    );
    expect(authenticatedAtOf({ idToken: idToken({}), clockDrift: 0 })).toBe(0);
  });
});
