import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config.server";
import { isCognitoError } from "~/auth/cognito-error";
import { createCognitoClient, type CognitoClient } from "~/auth/cognito.server";
import { totpCode } from "~/auth/emulator/totp.server";
import { createIdentity, type IdentityService } from "~/auth/identity.server";
import { isUnknownDevice } from "~/auth/remembered-devices.server";
import { deviceVerifier, type RememberedDevice } from "~/auth/srp.server";
import { RateLimiter } from "~/lib/rate-limit";
import { softwareAuthenticator } from "./support/software-authenticator";

/**
 * The app's Cognito client against the embedded emulator over HTTP, for every operation passkeys
 * and remembered devices added: each request is recorded as it left (X-Amz-Target, content type,
 * JSON body) and checked against Cognito's API reference, and so is each answer. The device tests
 * run the whole remembered-device flow: ConfirmDevice with the verifier amazon-cognito-identity-js
 * computes, then DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER instead of the authenticator code.
 */

const ORIGIN = "http://localhost:3000";
const PASSWORD = "Conecta-2025x";
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^[0-9a-f]+$/;
/** DateHelper's TIMESTAMP, e.g. "Fri Nov 27 20:56:59 UTC 2026". */
const SRP_TIMESTAMP = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2} UTC \d{4}$/;

interface WireCall {
  target: string | null;
  contentType: string | null;
  body: Record<string, unknown>;
  status: number;
  answer: Record<string, unknown>;
}

let identity: IdentityService;
let client: CognitoClient;
let wire: WireCall[];

beforeEach(async () => {
  identity = createIdentity(
    loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "devices-passkeys-")),
      PUBLIC_BASE_URL: ORIGIN,
    }),
    pino({ level: "silent" }),
    RateLimiter.inMemory(),
  );
  await identity.ready();
  wire = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const headers = new Headers(init?.headers);
    wire.push({
      target: headers.get("X-Amz-Target"),
      contentType: headers.get("Content-Type"),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      status: response.status,
      answer: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    });
    return response;
  };
  client = createCognitoClient({
    target: async () => (await identity.embeddedTarget())!,
    authFlow: "USER_PASSWORD_AUTH",
    timeoutMs: 10_000,
    logger: pino({ level: "silent" }),
    fetch: recording,
  });
});
afterEach(async () => {
  await identity.close();
});

/** The last request of this operation, checked for Cognito's JSON 1.1 protocol. */
function lastCall(operation: string): WireCall {
  const call = [...wire]
    .reverse()
    .find((recorded) => recorded.target === `AWSCognitoIdentityProviderService.${operation}`);
  if (!call) throw new Error(`no ${operation} request was sent`);
  expect(call.contentType).toBe("application/x-amz-json-1.1");
  return call;
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isCognitoError(error)) return error;
    throw error;
  }
  throw new Error("expected a Cognito error");
}

/** A confirmed account; with `totp`, an authenticator app is its preferred second factor. */
async function account(email: string, options: { totp?: boolean } = {}) {
  await identity.client.signUp({
    username: email,
    password: PASSWORD,
    attributes: [{ Name: "email", Value: email }],
  });
  await identity.client.confirmSignUp(email, identity.outbox!.list(email)[0].code);
  const signedIn = await identity.client.signIn(email, PASSWORD);
  const accessToken = signedIn.AuthenticationResult!.AccessToken;
  if (!options.totp) return { accessToken, secret: "" };
  const { SecretCode } = await identity.client.associateSoftwareToken({ accessToken });
  await identity.client.verifySoftwareToken(
    { accessToken },
    totpCode(SecretCode, Date.now()),
    "app",
  );
  await identity.client.setUserMfaPreference(accessToken, {
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
  return { accessToken, secret: SecretCode };
}

/** Password, then the authenticator code of the next 30-second step (each is taken once). */
async function signInWithCode(email: string, secret: string) {
  const started = await client.signIn(email, PASSWORD);
  expect(started.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
  return client.respondToChallenge({
    challengeName: "SOFTWARE_TOKEN_MFA",
    session: started.Session!,
    responses: {
      USERNAME: started.ChallengeParameters!.USER_ID_FOR_SRP,
      SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, Date.now() + 30_000),
    },
  });
}

describe("remembered devices against the emulator, on the wire", () => {
  it("ConfirmDevice and UpdateDeviceStatus remember the device; DEVICE_SRP_AUTH then replaces the code; a wrong device password is refused; ForgetDevice makes it unknown", async () => {
    const email = "recordar@ejemplo.mx";
    const { secret } = await account(email, { totp: true });

    // The second factor passed: the tokens carry the device Cognito saw (NewDeviceMetadata).
    const withCode = await signInWithCode(email, secret);
    const result = withCode.AuthenticationResult!;
    const metadata = result.NewDeviceMetadata!;
    expect(metadata.DeviceKey).toMatch(/^us-west-2_[0-9a-f-]{36}$/);
    expect(metadata.DeviceGroupKey).toMatch(/^\S+$/);

    const verifier = await deviceVerifier(metadata.DeviceGroupKey, metadata.DeviceKey);
    const confirmed = await client.confirmDevice({
      accessToken: result.AccessToken,
      deviceKey: metadata.DeviceKey,
      verifier: { PasswordVerifier: verifier.PasswordVerifier, Salt: verifier.Salt },
      deviceName: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
    });
    const confirmDevice = lastCall("ConfirmDevice");
    expect(confirmDevice.body).toEqual({
      AccessToken: result.AccessToken,
      DeviceKey: metadata.DeviceKey,
      DeviceSecretVerifierConfig: {
        PasswordVerifier: expect.stringMatching(BASE64),
        Salt: expect.stringMatching(BASE64),
      },
      DeviceName: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
    });
    // The verifier is g^x mod N, padded: 384 bytes of the 3072-bit group (385 with a sign byte).
    const verifierBytes = Buffer.from(verifier.PasswordVerifier, "base64").length;
    expect([384, 385]).toContain(verifierBytes);
    expect(JSON.stringify(confirmDevice.body)).not.toContain(verifier.randomPassword);
    expect(confirmDevice.status).toBe(200);
    expect(confirmed).toEqual({ UserConfirmationNecessary: true });

    await client.updateDeviceStatus(result.AccessToken, metadata.DeviceKey, "remembered");
    expect(lastCall("UpdateDeviceStatus").body).toEqual({
      AccessToken: result.AccessToken,
      DeviceKey: metadata.DeviceKey,
      DeviceRememberedStatus: "remembered",
    });
    expect(lastCall("UpdateDeviceStatus").answer).toEqual({});

    const [listed, ...others] = await client.listDevices(result.AccessToken);
    expect(lastCall("ListDevices").body).toEqual({ AccessToken: result.AccessToken, Limit: 60 });
    expect(others).toEqual([]);
    expect(listed).toEqual({
      DeviceKey: metadata.DeviceKey,
      DeviceAttributes: expect.arrayContaining([
        { Name: "device_name", Value: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" },
        { Name: "dev:device_remembered_status", Value: "remembered" },
      ]),
      DeviceCreateDate: expect.any(Number),
      DeviceLastModifiedDate: expect.any(Number),
      DeviceLastAuthenticatedDate: expect.any(Number),
    });

    const device: RememberedDevice = {
      deviceKey: metadata.DeviceKey,
      deviceGroupKey: metadata.DeviceGroupKey,
      randomPassword: verifier.randomPassword,
    };

    // The password with the device's key: DEVICE_SRP_AUTH, not SOFTWARE_TOKEN_MFA.
    const started = await client.signIn(email, PASSWORD, device);
    expect(lastCall("InitiateAuth").body).toEqual({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: expect.any(String),
      AuthParameters: { USERNAME: email, PASSWORD, DEVICE_KEY: metadata.DeviceKey },
    });
    expect(started).toMatchObject({
      ChallengeName: "DEVICE_SRP_AUTH",
      Session: expect.any(String),
      ChallengeParameters: { USERNAME: expect.any(String) },
    });
    const username = started.ChallengeParameters!.USERNAME;
    const signedIn = await client.answerDeviceChallenge({
      username,
      session: started.Session!,
      device,
    });
    expect(signedIn.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
    expect(signedIn.ChallengeName).toBeUndefined();

    const [deviceSrp, passwordVerifier] = wire
      .filter((call) => call.target === "AWSCognitoIdentityProviderService.RespondToAuthChallenge")
      .slice(-2);
    expect(deviceSrp.body).toEqual({
      ClientId: expect.any(String),
      ChallengeName: "DEVICE_SRP_AUTH",
      Session: started.Session,
      ChallengeResponses: {
        USERNAME: username,
        DEVICE_KEY: metadata.DeviceKey,
        SRP_A: expect.stringMatching(HEX),
      },
    });
    expect(deviceSrp.answer).toEqual({
      ChallengeName: "DEVICE_PASSWORD_VERIFIER",
      Session: expect.any(String),
      ChallengeParameters: {
        SRP_B: expect.stringMatching(HEX),
        SALT: expect.stringMatching(HEX),
        SECRET_BLOCK: expect.stringMatching(BASE64),
        USERNAME: username,
        DEVICE_KEY: metadata.DeviceKey,
      },
    });
    expect(passwordVerifier.body).toEqual({
      ClientId: expect.any(String),
      ChallengeName: "DEVICE_PASSWORD_VERIFIER",
      Session: deviceSrp.answer.Session,
      ChallengeResponses: {
        USERNAME: username,
        PASSWORD_CLAIM_SECRET_BLOCK: (
          deviceSrp.answer.ChallengeParameters as { SECRET_BLOCK: string }
        ).SECRET_BLOCK,
        TIMESTAMP: expect.stringMatching(SRP_TIMESTAMP),
        PASSWORD_CLAIM_SIGNATURE: expect.stringMatching(BASE64),
        DEVICE_KEY: metadata.DeviceKey,
      },
    });
    expect(wire.some((call) => call.body.ChallengeName === "SOFTWARE_TOKEN_MFA")).toBe(true);
    expect(wire.slice(-3).some((call) => call.body.ChallengeName === "SOFTWARE_TOKEN_MFA")).toBe(
      false,
    );

    // Another password for the device (a stolen key without its secret): refused.
    const again = await client.signIn(email, PASSWORD, device);
    const refused = await failure(
      client.answerDeviceChallenge({
        username,
        session: again.Session!,
        device: { ...device, randomPassword: `${device.randomPassword.slice(0, -1)}x` },
      }),
    );
    expect(refused.code).toBe("NotAuthorizedException");
    expect(lastCall("RespondToAuthChallenge").status).toBe(400);

    // Forgotten: listed no more, and Cognito no longer knows its key at sign-in.
    await client.forgetDevice(result.AccessToken, metadata.DeviceKey);
    expect(lastCall("ForgetDevice").body).toEqual({
      AccessToken: result.AccessToken,
      DeviceKey: metadata.DeviceKey,
    });
    expect(lastCall("ForgetDevice").answer).toEqual({});
    expect(await client.listDevices(result.AccessToken)).toEqual([]);
    const unknown = await failure(client.signIn(email, PASSWORD, device));
    expect(unknown.code).toBe("ResourceNotFoundException");
    expect(isUnknownDevice(unknown)).toBe(true);
    expect(lastCall("InitiateAuth").answer).toEqual({
      __type: "ResourceNotFoundException",
      message: "Device does not exist.",
    });
  }, 60_000);

  it("a confirmed device left not remembered still asks for the code", async () => {
    const email = "no-recordar@ejemplo.mx";
    const { secret } = await account(email, { totp: true });
    const result = (await signInWithCode(email, secret)).AuthenticationResult!;
    const metadata = result.NewDeviceMetadata!;
    const verifier = await deviceVerifier(metadata.DeviceGroupKey, metadata.DeviceKey);
    await client.confirmDevice({
      accessToken: result.AccessToken,
      deviceKey: metadata.DeviceKey,
      verifier: { PasswordVerifier: verifier.PasswordVerifier, Salt: verifier.Salt },
      deviceName: "Navegador",
    });
    await client.updateDeviceStatus(result.AccessToken, metadata.DeviceKey, "not_remembered");
    expect(lastCall("UpdateDeviceStatus").body).toMatchObject({
      DeviceRememberedStatus: "not_remembered",
    });
    const [listed] = await client.listDevices(result.AccessToken);
    expect(listed.DeviceAttributes).toContainEqual({
      Name: "dev:device_remembered_status",
      Value: "not_remembered",
    });
    const started = await client.signIn(email, PASSWORD, { deviceKey: metadata.DeviceKey });
    expect(started.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
  }, 60_000);
});

describe("passkeys against the emulator, on the wire", () => {
  it("registers a passkey, lists it, signs in with it through USER_AUTH's WEB_AUTHN, and deletes it", async () => {
    const email = "llave@ejemplo.mx";
    const { accessToken } = await account(email);
    const authenticator = softwareAuthenticator(ORIGIN);

    const { CredentialCreationOptions: creation } =
      await client.startWebAuthnRegistration(accessToken);
    expect(lastCall("StartWebAuthnRegistration").body).toEqual({ AccessToken: accessToken });
    // A PublicKeyCredentialCreationOptionsJSON document, for PUBLIC_BASE_URL's host.
    expect(creation).toMatchObject({
      challenge: expect.any(String),
      rp: { id: "localhost", name: expect.any(String) },
      user: { id: expect.any(String), name: email },
      pubKeyCredParams: expect.arrayContaining([{ type: "public-key", alg: -7 }]),
    });

    const registration = authenticator.create(creation as never);
    await client.completeWebAuthnRegistration(accessToken, registration);
    const complete = lastCall("CompleteWebAuthnRegistration");
    // Credential is a JSON document in the request, not a string.
    expect(complete.body).toEqual({ AccessToken: accessToken, Credential: registration });
    expect(complete.status).toBe(200);
    expect(complete.answer).toEqual({});

    const credentials = await client.listWebAuthnCredentials(accessToken);
    expect(lastCall("ListWebAuthnCredentials").body).toEqual({
      AccessToken: accessToken,
      MaxResults: 20,
    });
    expect(credentials).toEqual([
      {
        CredentialId: registration.id,
        FriendlyCredentialName: expect.any(String),
        RelyingPartyId: "localhost",
        AuthenticatorAttachment: "platform",
        AuthenticatorTransports: ["internal"],
        CreatedAt: expect.any(Number),
      },
    ]);

    // Sign-in: USER_AUTH preferring WEB_AUTHN answers the request options.
    const challenge = await client.startUserAuth(email, "WEB_AUTHN");
    expect(lastCall("InitiateAuth").body).toEqual({
      AuthFlow: "USER_AUTH",
      ClientId: expect.any(String),
      AuthParameters: { USERNAME: email, PREFERRED_CHALLENGE: "WEB_AUTHN" },
    });
    expect(challenge).toMatchObject({
      ChallengeName: "WEB_AUTHN",
      Session: expect.any(String),
      ChallengeParameters: { CREDENTIAL_REQUEST_OPTIONS: expect.any(String) },
    });
    const requestOptions = JSON.parse(challenge.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS);
    expect(requestOptions).toMatchObject({
      challenge: expect.any(String),
      rpId: "localhost",
      allowCredentials: [expect.objectContaining({ id: registration.id })],
    });

    const assertion = authenticator.get(requestOptions);
    const username = challenge.ChallengeParameters!.USERNAME ?? email;
    const signedIn = await client.respondToChallenge({
      challengeName: "WEB_AUTHN",
      session: challenge.Session!,
      responses: { USERNAME: username, CREDENTIAL: JSON.stringify(assertion) },
    });
    // CREDENTIAL is the AuthenticationResponseJSON as a string within ChallengeResponses.
    expect(lastCall("RespondToAuthChallenge").body).toEqual({
      ClientId: expect.any(String),
      ChallengeName: "WEB_AUTHN",
      Session: challenge.Session,
      ChallengeResponses: { USERNAME: username, CREDENTIAL: JSON.stringify(assertion) },
    });
    expect(signedIn.AuthenticationResult).toMatchObject({
      AccessToken: expect.any(String),
      IdToken: expect.any(String),
      RefreshToken: expect.any(String),
      TokenType: "Bearer",
    });

    // The same assertion again (a replayed answer) is refused: its session is spent.
    const replayed = await failure(
      client.respondToChallenge({
        challengeName: "WEB_AUTHN",
        session: challenge.Session!,
        responses: { USERNAME: username, CREDENTIAL: JSON.stringify(assertion) },
      }),
    );
    expect(replayed.code).toBe("NotAuthorizedException");

    await client.deleteWebAuthnCredential(accessToken, registration.id as string);
    expect(lastCall("DeleteWebAuthnCredential").body).toEqual({
      AccessToken: accessToken,
      CredentialId: registration.id,
    });
    expect(lastCall("DeleteWebAuthnCredential").answer).toEqual({});
    expect(await client.listWebAuthnCredentials(accessToken)).toEqual([]);

    // Without a passkey, the preference cannot be met: the first-factor choice, password only.
    const choice = await client.startUserAuth(email, "WEB_AUTHN");
    expect(choice).toMatchObject({
      ChallengeName: "SELECT_CHALLENGE",
      AvailableChallenges: ["PASSWORD"],
    });
    const missing = await failure(client.deleteWebAuthnCredential(accessToken, "no-such-passkey"));
    expect(missing.code).toBe("ResourceNotFoundException");
  }, 60_000);

  it("refuses a passkey registered on another origin or for another relying party, and an assertion signed on another origin", async () => {
    const email = "otro-sitio@ejemplo.mx";
    const { accessToken } = await account(email);
    const here = softwareAuthenticator(ORIGIN);
    const { CredentialCreationOptions: creation } =
      await client.startWebAuthnRegistration(accessToken);
    await client.completeWebAuthnRegistration(accessToken, here.create(creation as never));

    // Registrations made on another origin, or for another relying party, are refused.
    const elsewhere = softwareAuthenticator("https://phishing.example");
    const { CredentialCreationOptions: second } =
      await client.startWebAuthnRegistration(accessToken);
    const foreignOrigin = await failure(
      client.completeWebAuthnRegistration(accessToken, elsewhere.create(second as never)),
    );
    expect(foreignOrigin.status).toBe(400);
    const { CredentialCreationOptions: third } =
      await client.startWebAuthnRegistration(accessToken);
    const otherParty = await failure(
      client.completeWebAuthnRegistration(
        accessToken,
        here.create({
          ...(third as never as Parameters<typeof here.create>[0]),
          rp: { id: "otro.example" },
        }),
      ),
    );
    expect(otherParty.status).toBe(400);
    expect(await client.listWebAuthnCredentials(accessToken)).toHaveLength(1);

    const challenge = await client.startUserAuth(email, "WEB_AUTHN");
    const options = JSON.parse(challenge.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS);
    // The right passkey, signed as if the page were on another origin.
    const assertion = here.get(options) as { response: { clientDataJSON: string } };
    const clientData = JSON.parse(
      Buffer.from(assertion.response.clientDataJSON, "base64url").toString(),
    );
    assertion.response.clientDataJSON = Buffer.from(
      JSON.stringify({ ...clientData, origin: "https://phishing.example" }),
    ).toString("base64url");
    const refused = await failure(
      client.respondToChallenge({
        challengeName: "WEB_AUTHN",
        session: challenge.Session!,
        responses: { USERNAME: email, CREDENTIAL: JSON.stringify(assertion) },
      }),
    );
    expect(refused.code).toBe("NotAuthorizedException");
  }, 60_000);

  /** USER_AUTH preferring WEB_AUTHN, answered with what this authenticator signs. */
  async function signInWithPasskey(
    email: string,
    device: ReturnType<typeof softwareAuthenticator>,
  ) {
    const challenge = await client.startUserAuth(email, "WEB_AUTHN");
    expect(challenge.ChallengeName).toBe("WEB_AUTHN");
    const options = JSON.parse(challenge.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS);
    return client.respondToChallenge({
      challengeName: "WEB_AUTHN",
      session: challenge.Session!,
      responses: {
        USERNAME: challenge.ChallengeParameters!.USERNAME ?? email,
        CREDENTIAL: JSON.stringify(device.get(options)),
      },
    });
  }

  it("asks for user verification and refuses a passkey made or used without it, even for an account with an authenticator app", async () => {
    const email = "verificada@ejemplo.mx";
    const { accessToken } = await account(email, { totp: true });
    const phone = softwareAuthenticator(ORIGIN);

    // A device that does not check its owner cannot make a passkey.
    const { CredentialCreationOptions: first } =
      await client.startWebAuthnRegistration(accessToken);
    expect(first).toMatchObject({
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    const unverified = softwareAuthenticator(ORIGIN, { userVerified: false });
    const refusedRegistration = await failure(
      client.completeWebAuthnRegistration(accessToken, unverified.create(first as never)),
    );
    expect(refusedRegistration.status).toBe(400);
    expect(await client.listWebAuthnCredentials(accessToken)).toEqual([]);

    const { CredentialCreationOptions: second } =
      await client.startWebAuthnRegistration(accessToken);
    await client.completeWebAuthnRegistration(accessToken, phone.create(second as never));

    // The request options ask the browser for user verification.
    const challenge = await client.startUserAuth(email, "WEB_AUTHN");
    expect(JSON.parse(challenge.ChallengeParameters!.CREDENTIAL_REQUEST_OPTIONS)).toMatchObject({
      userVerification: "required",
    });

    // The same passkey signed without the owner verified: one factor only, refused, and the
    // authenticator app's code is not a way around it.
    const withoutVerification = await failure(
      signInWithPasskey(email, phone.clone({ userVerified: false })),
    );
    expect(withoutVerification.code).toBe("NotAuthorizedException");

    // With the owner verified the passkey is both factors: tokens, no authenticator code.
    const signedIn = await signInWithPasskey(email, phone);
    expect(signedIn.ChallengeName).toBeUndefined();
    expect(signedIn.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
  }, 60_000);

  it("keeps each passkey's signature counter and refuses a cloned authenticator whose counter does not move on", async () => {
    const email = "contador@ejemplo.mx";
    const { accessToken } = await account(email);
    const phone = softwareAuthenticator(ORIGIN);
    const { CredentialCreationOptions: creation } =
      await client.startWebAuthnRegistration(accessToken);
    await client.completeWebAuthnRegistration(accessToken, phone.create(creation as never));
    // The copy is taken now; the phone goes on signing (counters 1 and 2).
    const copy = phone.clone();
    expect((await signInWithPasskey(email, phone)).AuthenticationResult).toBeDefined();
    expect((await signInWithPasskey(email, phone)).AuthenticationResult).toBeDefined();

    // The copy's counter (1) is not past the stored one (2): refused, once and again (3 > 2
    // would pass: a clone used more often than the original is not told apart).
    const cloned = await failure(signInWithPasskey(email, copy));
    expect(cloned.code).toBe("NotAuthorizedException");
    const clonedAgain = await failure(signInWithPasskey(email, copy));
    expect(clonedAgain.code).toBe("NotAuthorizedException");

    // The phone itself goes on signing in.
    expect((await signInWithPasskey(email, phone)).AuthenticationResult).toBeDefined();
  }, 60_000);
});
