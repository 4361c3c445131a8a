import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import type { Services } from "~/context";
import { createCognitoClient } from "~/auth/cognito.server";
import { startDeviceSrp, type DeviceSrpRound } from "~/auth/emulator/device-srp.server";
import { deviceVerifier } from "~/auth/srp.server";
import * as signIn from "~/routes/auth.sign-in";
import { createServices } from "~/services.server";
import { fixture, srpServer, startCognitoStub } from "./support/cognito-stub";
import { Browser, call } from "./support/route-calls";

/**
 * Remembered devices and passkey lists against Cognito's documented answers (recorded responses
 * in tests/fixtures/cognito, served over HTTP): what the embedded emulator cannot show. A real
 * pool signs in by SRP, so the device key rides on PASSWORD_VERIFIER and a forgotten device is
 * refused there; lists come in pages.
 */

const POOL = "us-west-2_Ab12CdE3f";
const CLIENT = "4l7kq2n5v8x1c3b6m9p0r2t4w6";
const EMAIL = "maria.fernanda.hernandez@ejemplo.mx";
const PASSWORD = "Conecta-2025x";
const USER_ID = "f8a1c3e0-7b2d-4c55-9e61-2a9d4b7c1e08";
const DEVICE_KEY = "us-west-2_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b";
const DEVICE_GROUP_KEY = "-Zk3vQ2pL";
const tokens = fixture("RespondToAuthChallenge.tokens.200.json").body;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function stubbed(answers: Parameters<typeof startCognitoStub>[0]) {
  // Signed in, the session reads the account's second factors.
  const stub = await startCognitoStub({ GetUser: "GetUser.200.json", ...answers });
  cleanups.push(stub.close);
  const services: Services = await createServices(
    loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "devices-recorded-")),
      SESSION_SECRET: "devices-recorded-test-secret-long-enough-0123456789",
      COGNITO_USER_POOL_ID: POOL,
      COGNITO_CLIENT_ID: CLIENT,
      COGNITO_ENDPOINT: stub.url,
      COGNITO_AUTH_FLOW: "USER_SRP_AUTH",
      COGNITO_TIMEOUT_MS: "5000",
    }),
    pino({ level: "silent" }),
  );
  cleanups.push(() => services.db.destroy());
  cleanups.push(() => services.identity.close());
  return { stub, services };
}

/** A browser that remembers this pool's device for the customer (confirmed earlier). */
async function browserWithDevice(services: Services) {
  const confirmed = await deviceVerifier(DEVICE_GROUP_KEY, DEVICE_KEY);
  const browser = new Browser();
  browser.keep(
    services.cookies.rememberedDevices.write(
      [
        {
          username: EMAIL,
          sub: USER_ID,
          deviceKey: DEVICE_KEY,
          deviceGroupKey: DEVICE_GROUP_KEY,
          randomPassword: confirmed.randomPassword,
        },
      ],
      null,
    ),
  );
  return { browser, confirmed };
}

describe("remembered devices against Cognito's recorded answers (USER_SRP_AUTH)", () => {
  it("the device key rides on PASSWORD_VERIFIER; DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER then sign in without a code", async () => {
    const srp = srpServer({ poolName: "Ab12CdE3f", userId: USER_ID, password: PASSWORD, tokens });
    let confirmed: Awaited<ReturnType<typeof deviceVerifier>> | null = null;
    let round: DeviceSrpRound | null = null;
    const { stub, services } = await stubbed({
      InitiateAuth: (body) => srp.initiateAuth(body),
      RespondToAuthChallenge: (body) => {
        const responses = body.ChallengeResponses as Record<string, string>;
        if (body.ChallengeName === "PASSWORD_VERIFIER") {
          const answer = srp.respondToAuthChallenge(body);
          if (answer.status !== 200) return answer;
          // The password was right and the device is remembered: no second factor.
          return {
            status: 200,
            body: {
              ChallengeName: "DEVICE_SRP_AUTH",
              Session: "session-device",
              ChallengeParameters: {},
            },
          };
        }
        if (body.ChallengeName === "DEVICE_SRP_AUTH") {
          round = startDeviceSrp({
            passwordVerifier: confirmed!.PasswordVerifier,
            salt: confirmed!.Salt,
            deviceGroupKey: DEVICE_GROUP_KEY,
            deviceKey: DEVICE_KEY,
            srpA: responses.SRP_A,
          });
          return {
            status: 200,
            body: {
              ChallengeName: "DEVICE_PASSWORD_VERIFIER",
              Session: "session-verifier",
              ChallengeParameters: { ...round!.parameters, DEVICE_KEY, USERNAME: USER_ID },
            },
          };
        }
        return round?.verify(responses)
          ? { status: 200, body: tokens }
          : fixture("InitiateAuth.NotAuthorized.400.json");
      },
    });
    const device = await browserWithDevice(services);
    confirmed = device.confirmed;

    const outcome = await call(signIn.action, services, device.browser, "/auth/sign-in", {
      username: EMAIL,
      password: PASSWORD,
    });
    expect(outcome.location).toBe("/my-account");
    expect(services.cookies.authSession.read(device.browser.header)).not.toBeNull();
    expect(stub.operations()).toEqual([
      "InitiateAuth",
      "RespondToAuthChallenge",
      "RespondToAuthChallenge",
      "RespondToAuthChallenge",
      "GetUser",
    ]);
    expect(stub.calls[0].body).toEqual({
      AuthFlow: "USER_SRP_AUTH",
      ClientId: CLIENT,
      AuthParameters: { USERNAME: EMAIL, SRP_A: expect.any(String), DEVICE_KEY },
    });
    expect(stub.calls[1].body).toMatchObject({
      ChallengeName: "PASSWORD_VERIFIER",
      ChallengeResponses: { USERNAME: USER_ID, DEVICE_KEY },
    });
    // Answered with Cognito's user name (USER_ID_FOR_SRP), as amazon-cognito-identity-js does.
    expect(stub.calls[2].body).toEqual({
      ClientId: CLIENT,
      ChallengeName: "DEVICE_SRP_AUTH",
      Session: "session-device",
      ChallengeResponses: {
        USERNAME: USER_ID,
        DEVICE_KEY,
        SRP_A: expect.stringMatching(/^[0-9a-f]+$/),
      },
    });
    expect(stub.calls[3].body).toEqual({
      ClientId: CLIENT,
      ChallengeName: "DEVICE_PASSWORD_VERIFIER",
      Session: "session-verifier",
      ChallengeResponses: {
        USERNAME: USER_ID,
        PASSWORD_CLAIM_SECRET_BLOCK: expect.any(String),
        TIMESTAMP: expect.any(String),
        PASSWORD_CLAIM_SIGNATURE: expect.any(String),
        DEVICE_KEY,
      },
    });
  });

  it("a device Cognito no longer knows (ResourceNotFoundException at PASSWORD_VERIFIER) is dropped and the sign-in retried once without it", async () => {
    const srp = srpServer({ poolName: "Ab12CdE3f", userId: USER_ID, password: PASSWORD, tokens });
    const { stub, services } = await stubbed({
      InitiateAuth: (body) => srp.initiateAuth(body),
      RespondToAuthChallenge: (body) =>
        (body.ChallengeResponses as Record<string, string>).DEVICE_KEY
          ? fixture("RespondToAuthChallenge.DeviceNotFound.400.json")
          : srp.respondToAuthChallenge(body),
    });
    const { browser } = await browserWithDevice(services);
    const outcome = await call(signIn.action, services, browser, "/auth/sign-in", {
      username: EMAIL,
      password: PASSWORD,
    });
    expect(outcome.location).toBe("/my-account");
    expect(stub.operations()).toEqual([
      "InitiateAuth",
      "RespondToAuthChallenge",
      "InitiateAuth",
      "RespondToAuthChallenge",
      "GetUser",
    ]);
    expect(stub.calls[2].body).toEqual({
      AuthFlow: "USER_SRP_AUTH",
      ClientId: CLIENT,
      AuthParameters: { USERNAME: EMAIL, SRP_A: expect.any(String) },
    });
    expect(services.cookies.rememberedDevices.read(browser.header) ?? []).toEqual([]);
  });

  it("a wrong password with a remembered device is refused as any wrong password, and the device is kept", async () => {
    const srp = srpServer({ poolName: "Ab12CdE3f", userId: USER_ID, password: PASSWORD, tokens });
    const { stub, services } = await stubbed({
      InitiateAuth: (body) => srp.initiateAuth(body),
      RespondToAuthChallenge: (body) => srp.respondToAuthChallenge(body),
    });
    const { browser } = await browserWithDevice(services);
    const outcome = await call(signIn.action, services, browser, "/auth/sign-in", {
      username: EMAIL,
      password: "Otra-2025x",
    });
    expect(outcome.status).toBe(400);
    expect(stub.operations()).toEqual(["InitiateAuth", "RespondToAuthChallenge"]);
    expect(services.cookies.rememberedDevices.read(browser.header)).toHaveLength(1);
  });
});

describe("lists in pages, and ConfirmDevice's answer, as Cognito documents them", () => {
  function client(url: string) {
    return createCognitoClient({
      target: async () => ({ endpoint: url, userPoolId: POOL, clientId: CLIENT }),
      authFlow: "USER_SRP_AUTH",
      timeoutMs: 5000,
      logger: pino({ level: "silent" }),
    });
  }

  it("ListDevices follows PaginationToken to the last page", async () => {
    const stub = await startCognitoStub({
      ListDevices: ["ListDevices.page1.200.json", "ListDevices.page2.200.json"],
    });
    cleanups.push(stub.close);
    const devices = await client(stub.url).listDevices("access-token");
    expect(devices.map((device) => device.DeviceKey)).toEqual([
      "us-west-2_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
      "us-west-2_0a9b8c7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d",
    ]);
    expect(stub.calls.map((recorded) => recorded.body)).toEqual([
      { AccessToken: "access-token", Limit: 60 },
      {
        AccessToken: "access-token",
        Limit: 60,
        PaginationToken: "eyJkZXZpY2VLZXkiOiJ1cy13ZXN0LTJfNmYxZDJjM2IifQ==",
      },
    ]);
  });

  it("ListWebAuthnCredentials follows NextToken to the last page", async () => {
    const stub = await startCognitoStub({
      ListWebAuthnCredentials: [
        "ListWebAuthnCredentials.page1.200.json",
        "ListWebAuthnCredentials.page2.200.json",
      ],
    });
    cleanups.push(stub.close);
    const credentials = await client(stub.url).listWebAuthnCredentials("access-token");
    expect(credentials.map((credential) => credential.FriendlyCredentialName)).toEqual([
      "Pixel 8",
      "YubiKey 5",
    ]);
    expect(stub.calls.map((recorded) => recorded.body)).toEqual([
      { AccessToken: "access-token", MaxResults: 20 },
      {
        AccessToken: "access-token",
        MaxResults: 20,
        NextToken: "eyJjcmVkZW50aWFsSWQiOiI4WXkwYlgybjRRbTFzSmM3dFZ3OWtBIn0=",
      },
    ]);
  });

  it("ConfirmDevice sends the verifier and salt in base64 and reads UserConfirmationNecessary", async () => {
    const stub = await startCognitoStub({ ConfirmDevice: "ConfirmDevice.200.json" });
    cleanups.push(stub.close);
    const verifier = await deviceVerifier(DEVICE_GROUP_KEY, DEVICE_KEY);
    const answer = await client(stub.url).confirmDevice({
      accessToken: "access-token",
      deviceKey: DEVICE_KEY,
      verifier: { PasswordVerifier: verifier.PasswordVerifier, Salt: verifier.Salt },
      deviceName: "Navegador",
    });
    expect(answer).toEqual({ UserConfirmationNecessary: false });
    expect(stub.calls[0]).toEqual({
      operation: "ConfirmDevice",
      body: {
        AccessToken: "access-token",
        DeviceKey: DEVICE_KEY,
        DeviceSecretVerifierConfig: {
          PasswordVerifier: verifier.PasswordVerifier,
          Salt: verifier.Salt,
        },
        DeviceName: "Navegador",
      },
    });
    // Base64 of the padded hex amazon-cognito-identity-js computes from 16 random bytes read as a
    // number: a byte fewer when they start with a zero byte (1 time in 256), a leading 00 when the
    // top bit is set.
    const salt = Buffer.from(verifier.Salt, "base64");
    expect(salt.toString("base64")).toBe(verifier.Salt);
    expect(salt.length).toBeGreaterThanOrEqual(13);
    expect(salt.length).toBeLessThanOrEqual(17);
    expect(salt[0] === 0 ? salt[1]! >= 0x80 : salt[0]! < 0x80).toBe(true);
  });
});
