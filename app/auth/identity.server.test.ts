import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/config.server";
import { RateLimiter } from "~/lib/rate-limit";
import { isCognitoError } from "./cognito-error";
import { createIdentity, type IdentityService } from "./identity.server";
import { totpCode } from "./emulator/totp.server";

const logger = pino({ level: "silent" });
const started: IdentityService[] = [];
afterEach(async () => {
  while (started.length) await started.pop()!.close();
});

function embedded(
  dataDir = mkdtempSync(path.join(tmpdir(), "identity-")),
  env: Record<string, string> = {},
) {
  const identity = createIdentity(
    loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, ...env }),
    logger,
    RateLimiter.inMemory(),
  );
  started.push(identity);
  return { identity, dataDir };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isCognitoError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a Cognito error");
}

describe("configuration of the identity service", () => {
  it("runs the embedded emulator with USER_PASSWORD_AUTH when no pool is named", () => {
    const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "c-")) });
    expect(config.identityMode).toBe("embedded");
    expect(config.cognitoAuthFlow).toBe("USER_PASSWORD_AUTH");
    expect(config.COGNITO_REGION).toBe("us-west-2");
  });
  it("uses SRP against a real pool by default", () => {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "c-")),
      COGNITO_USER_POOL_ID: "us-west-2_Ab12CdE3f",
      COGNITO_CLIENT_ID: "4l7kq2n5v8x1c3b6m9p0r2t4w6",
    });
    expect(config.identityMode).toBe("cognito");
    expect(config.cognitoAuthFlow).toBe("USER_SRP_AUTH");
  });
  it("refuses half a pool, or SRP against the emulator, naming the variables", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "c-"));
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, COGNITO_USER_POOL_ID: "us-west-2_Ab12CdE3f" }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, COGNITO_AUTH_FLOW: "USER_SRP_AUTH" })).toThrow(
      /COGNITO_AUTH_FLOW: the embedded emulator only knows USER_PASSWORD_AUTH/,
    );
  });
});

describe("the embedded cognito-local", () => {
  it("signs up, sends the code to the outbox, confirms with a verified email and signs in", async () => {
    const { identity } = embedded();
    const { client, outbox } = identity;
    await identity.ready();
    const email = "ana@ejemplo.mx";
    const signUp = await client.signUp({
      username: email,
      password: "Conecta-2025x",
      attributes: [{ Name: "email", Value: email }],
    });
    expect(signUp.UserConfirmed).toBe(false);
    const [sent] = outbox!.list(email);
    expect(sent).toMatchObject({ to: email, medium: "EMAIL", purpose: "SignUp" });
    expect(sent.code).toMatch(/^\d{6}$/);

    expect(await failure(client.signIn(email, "Conecta-2025x"))).toMatchObject({
      code: "UserNotConfirmedException",
    });
    await client.resendConfirmationCode(email);
    const resent = outbox!.list(email)[0];
    expect(resent.purpose).toBe("ResendCode");
    expect(
      await failure(client.confirmSignUp(email, sent.code === resent.code ? "000000" : sent.code)),
    ).toMatchObject({
      code: "CodeMismatchException",
    });
    await client.confirmSignUp(email, resent.code);
    expect(await failure(client.resendConfirmationCode(email))).toEqual({
      code: "InvalidParameterException",
      message: "User is already confirmed.",
    });

    const result = await client.signIn(email, "Conecta-2025x");
    const user = await client.getUser(result.AuthenticationResult!.AccessToken);
    expect(user.UserAttributes).toContainEqual({ Name: "email_verified", Value: "true" });
  });

  it("sets up an authenticator app and then asks for its code at sign-in, accepting each code once", async () => {
    const { identity } = embedded();
    const { client, outbox } = identity;
    const email = "totp@ejemplo.mx";
    await client.signUp({
      username: email,
      password: "Conecta-2025x",
      attributes: [{ Name: "email", Value: email }],
    });
    await client.confirmSignUp(email, outbox!.list(email)[0].code);
    const { AccessToken } = (await client.signIn(email, "Conecta-2025x")).AuthenticationResult!;
    const { SecretCode } = await client.associateSoftwareToken({ accessToken: AccessToken });
    expect(
      await failure(client.verifySoftwareToken({ accessToken: AccessToken }, "000000", "app")),
    ).toMatchObject({
      code: "EnableSoftwareTokenMFAException",
    });
    const now = Date.now();
    await client.verifySoftwareToken(
      { accessToken: AccessToken },
      totpCode(SecretCode, now),
      "app",
    );
    await client.setUserMfaPreference(AccessToken, {
      SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(await client.getUser(AccessToken)).toMatchObject({
      UserMFASettingList: ["SOFTWARE_TOKEN_MFA"],
      PreferredMfaSetting: "SOFTWARE_TOKEN_MFA",
    });

    const challenge = await client.signIn(email, "Conecta-2025x");
    expect(challenge).toMatchObject({ ChallengeName: "SOFTWARE_TOKEN_MFA" });
    expect(challenge.AuthenticationResult).toBeUndefined();
    const answer = (code: string) =>
      client.respondToChallenge({
        challengeName: "SOFTWARE_TOKEN_MFA",
        session: challenge.Session!,
        responses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code },
      });
    // The code that verified the app was used once already.
    expect(await failure(answer(totpCode(SecretCode, now)))).toMatchObject({
      code: "CodeMismatchException",
    });
    const done = await answer(totpCode(SecretCode, now + 30_000));
    expect(done.AuthenticationResult?.AccessToken).toBeTruthy();
    expect(await failure(answer(totpCode(SecretCode, now + 30_000)))).toMatchObject({
      code: "NotAuthorizedException",
      message: "Invalid session for the user, session is expired.",
    });
  });

  it("signs the user out everywhere: refresh tokens revoked, earlier access tokens refused", async () => {
    const { identity } = embedded();
    const { client, outbox } = identity;
    const email = "global@ejemplo.mx";
    await client.signUp({
      username: email,
      password: "Conecta-2025x",
      attributes: [{ Name: "email", Value: email }],
    });
    await client.confirmSignUp(email, outbox!.list(email)[0].code);
    const first = (await client.signIn(email, "Conecta-2025x")).AuthenticationResult!;
    const second = (await client.signIn(email, "Conecta-2025x")).AuthenticationResult!;
    expect((await client.refresh(second.RefreshToken!)).AccessToken).toBeTruthy();

    // Token times are whole seconds: the sign-out comes a second after the tokens it ends.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await client.globalSignOut(second.AccessToken);
    for (const refreshToken of [first.RefreshToken!, second.RefreshToken!]) {
      expect(await failure(client.refresh(refreshToken))).toMatchObject({
        code: "NotAuthorizedException",
      });
    }
    expect(await failure(client.getUser(first.AccessToken))).toMatchObject({
      code: "NotAuthorizedException",
      message: "Access Token has been revoked",
    });
    // A sign-in after it is not touched.
    const after = (await client.signIn(email, "Conecta-2025x")).AuthenticationResult!;
    expect((await client.getUser(after.AccessToken)).Username).toBeTruthy();
    expect((await client.refresh(after.RefreshToken!)).AccessToken).toBeTruthy();
  });

  it("keeps its pool under DATA_DIR and reuses it after a restart", async () => {
    const first = embedded();
    const firstTarget = await first.identity.embeddedTarget();
    await first.identity.close();
    const second = embedded(first.dataDir);
    const secondTarget = await second.identity.embeddedTarget();
    expect(secondTarget).toMatchObject({
      userPoolId: firstTarget!.userPoolId,
      clientId: firstTarget!.clientId,
    });
    expect(secondTarget!.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it("has no outbox in a production test environment", async () => {
    const { identity } = embedded(undefined, {
      NODE_ENV: "production",
      SESSION_SECRET: "p".repeat(40),
      PUBLIC_BASE_URL: "https://pruebas.conectamovil.mx",
      ALLOW_EMBEDDED_IDENTITY: "true",
      ALLOW_SANDBOX_PAYMENTS: "true",
      ALLOW_SANDBOX_ESIM: "true",
      ALLOW_CAPTURED_MAIL: "true",
      ALLOW_SIMULATED_BSS: "true",
      ALLOW_CAPTURED_SMS: "true",
      ALLOW_SANDBOX_ID_VALIDATION: "true",
      ALLOW_SANDBOX_INVOICES: "true",
    });
    expect(identity.outbox).toBeNull();
    await identity.ready();
  });
});
