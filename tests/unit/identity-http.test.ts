import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "~/config.server";
import { MAX_SET_COOKIE_BYTES, parseCookieHeader } from "~/lib/sealed-cookie.server";
import * as confirmSignIn from "~/routes/auth.confirm-sign-in";
import * as confirmSignUp from "~/routes/auth.confirm-sign-up";
import * as forceNewPassword from "~/routes/auth.force-new-password";
import * as forgotPassword from "~/routes/auth.forgot-password";
import * as selectMfaType from "~/routes/auth.select-mfa-type";
import * as setupTotp from "~/routes/auth.setup-totp";
import * as signIn from "~/routes/auth.sign-in";
import * as signOut from "~/routes/auth.sign-out";
import * as signUp from "~/routes/auth.sign-up";
import * as outbox from "~/routes/dev.outbox";
import * as myAccount from "~/routes/my-account._index";
import type { Services } from "~/context";
import { createServices } from "~/services.server";
import { fixture, srpServer, startCognitoStub, startSilentServer } from "./support/cognito-stub";
import { Browser, call, requestContext, type Outcome } from "./support/route-calls";

/**
 * The auth route actions against recorded Cognito responses served over HTTP: what the embedded
 * emulator cannot show (SRP, disabled users, throttling, MFA_SETUP, EMAIL_OTP, network failures).
 */

const POOL = "us-west-2_Ab12CdE3f";
const CLIENT = "4l7kq2n5v8x1c3b6m9p0r2t4w6";
const SUB = "f8a1c3e0-7b2d-4c55-9e61-2a9d4b7c1e08";
const EMAIL = "maria.fernanda.hernandez@ejemplo.mx";
const PASSWORD = "Conecta-2025x";
const tokens = fixture("RespondToAuthChallenge.tokens.200.json").body;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function contextFor(endpoint: string, extra: Record<string, string> = {}): Promise<Services> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "identity-http-")),
    SESSION_SECRET: "http-test-secret-that-is-long-enough-0123456789",
    COGNITO_USER_POOL_ID: POOL,
    COGNITO_CLIENT_ID: CLIENT,
    COGNITO_ENDPOINT: endpoint,
    COGNITO_AUTH_FLOW: "USER_PASSWORD_AUTH",
    COGNITO_TIMEOUT_MS: "800",
    ...extra,
  });
  const services = await createServices(config, pino({ level: "silent" }));
  cleanups.push(() => services.db.destroy());
  return services;
}

const formErrors = (outcome: Outcome) =>
  (outcome.data as { error?: Record<string, string[]> }).error?.[""];
const flashKey = (context: Services, browser: Browser) =>
  context.cookies.flash.read(browser.header)?.key;
const signedIn = (context: Services, browser: Browser) =>
  context.cookies.authSession.read(browser.header);

async function stubbed(
  answers: Parameters<typeof startCognitoStub>[0],
  extra?: Record<string, string>,
) {
  const stub = await startCognitoStub(answers);
  cleanups.push(stub.close);
  const context = await contextFor(stub.url, extra);
  cleanups.push(() => context.identity.close());
  return { stub, context, browser: new Browser() };
}

const signInForm = { username: EMAIL, password: PASSWORD };

describe("sign-in against Cognito's recorded answers", () => {
  it("PasswordResetRequired: sends a reset code and opens confirm-reset-password", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.PasswordResetRequired.400.json",
      ForgotPassword: "ForgotPassword.200.json",
    });
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(outcome.status).toBe(303);
    expect(outcome.location).toBe("/auth/confirm-reset-password");
    expect(stub.operations()).toEqual(["InitiateAuth", "ForgotPassword"]);
    expect(stub.calls[1].body).toMatchObject({ ClientId: CLIENT, Username: EMAIL });
    expect(flashKey(context, browser)).toBe("auth:flash.passwordResetRequired");
    expect(context.cookies.authPending.read(browser.header)).toMatchObject({
      username: EMAIL,
      delivery: { destination: "m***@e***", medium: "EMAIL" },
    });
    expect(JSON.stringify(context.cookies.authPending.read(browser.header))).not.toContain(
      PASSWORD,
    );
  });

  it("UserNotConfirmed: resends the code and opens confirm-sign-up", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.UserNotConfirmed.400.json",
      ResendConfirmationCode: "ResendConfirmationCode.200.json",
    });
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(outcome.location).toBe("/auth/confirm-sign-up");
    expect(stub.operations()).toEqual(["InitiateAuth", "ResendConfirmationCode"]);
    const page = await call(confirmSignUp.loader, context, browser, "/auth/confirm-sign-up");
    expect(page.data).toMatchObject({ username: EMAIL, destination: "m***@e***" });
  });

  it("NotAuthorized “User is disabled.”: a Spanish message on the form, no session", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.UserDisabled.400.json",
    });
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(outcome.status).toBe(400);
    expect(formErrors(outcome)).toEqual(["Tu cuenta está desactivada. Escríbenos para ayudarte."]);
    expect(signedIn(context, browser)).toBeNull();
    expect(JSON.stringify(outcome.data)).not.toContain(PASSWORD);
    expect(JSON.stringify(outcome.data)).toContain(EMAIL);
  });

  it("an exception without a mapping: the generic Spanish message, and its name (only) in the log", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.UnexpectedLambda.400.json",
    });
    const lines: unknown[] = [];
    context.logger = { ...context.logger, warn: (line: unknown) => lines.push(line) } as never;
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(outcome.status).toBe(400);
    expect(formErrors(outcome)).toEqual(["No pudimos completar la solicitud. Inténtalo de nuevo."]);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "identity error without a mapping",
        exception: "UnexpectedLambdaException",
        operation: "InitiateAuth",
      }),
    );
    expect(JSON.stringify(lines)).not.toContain(EMAIL);
  });

  it("NotAuthorized “Incorrect username or password.” and “Password attempts exceeded”", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: [
        "InitiateAuth.NotAuthorized.400.json",
        "InitiateAuth.PasswordAttemptsExceeded.400.json",
      ],
    });
    const first = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(formErrors(first)).toEqual(["Correo o contraseña incorrectos."]);
    const second = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(second.status).toBe(429);
    expect(formErrors(second)?.[0]).toMatch(/^Superaste el número de intentos/);
  });

  it("MFA_SETUP with an authenticator app: associates, shows the QR, verifies and signs in", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.MFA_SETUP.200.json",
      AssociateSoftwareToken: "AssociateSoftwareToken.200.json",
      VerifySoftwareToken: "VerifySoftwareToken.200.json",
      RespondToAuthChallenge: "RespondToAuthChallenge.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    const started = await call(signIn.action, context, browser, "/auth/sign-in", {
      ...signInForm,
      redirectTo: "/my-account/recarga",
    });
    expect(started.location).toBe("/auth/setup-totp");
    const setupSession = fixture("InitiateAuth.MFA_SETUP.200.json").body as { Session: string };
    expect(stub.calls[1]).toMatchObject({
      operation: "AssociateSoftwareToken",
      body: { Session: setupSession.Session },
    });

    const page = await call(setupTotp.loader, context, browser, "/auth/setup-totp");
    expect(page.data).toMatchObject({
      kind: "sign-in",
      secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    });
    expect((page.data as { qr: string }).qr).toMatch(/^data:image\/png;base64,/);

    const done = await call(setupTotp.action, context, browser, "/auth/setup-totp", {
      intent: "verify",
      confirmation_code: "123456",
    });
    expect(done.location).toBe("/my-account/recarga");
    const associated = fixture("AssociateSoftwareToken.200.json").body as { Session: string };
    const verified = fixture("VerifySoftwareToken.200.json").body as { Session: string };
    expect(stub.calls.find((c) => c.operation === "VerifySoftwareToken")!.body).toMatchObject({
      Session: associated.Session,
      UserCode: "123456",
    });
    expect(stub.calls.find((c) => c.operation === "RespondToAuthChallenge")!.body).toMatchObject({
      ChallengeName: "MFA_SETUP",
      Session: verified.Session,
      ChallengeResponses: { USERNAME: SUB },
    });
    expect(signedIn(context, browser)?.idToken).toBe(
      (tokens as { AuthenticationResult: { IdToken: string } }).AuthenticationResult.IdToken,
    );
    for (const line of done.setCookies)
      expect(Buffer.byteLength(line)).toBeLessThan(MAX_SET_COOKIE_BYTES);
    expect(context.cookies.authPending.read(browser.header)).toBeNull();
  });

  it("MFA_SETUP offering app and email: the customer chooses first", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.MFA_SETUP-choice.200.json",
      AssociateSoftwareToken: "AssociateSoftwareToken.200.json",
    });
    const started = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(started.location).toBe("/auth/select-mfa-type");
    const page = await call(selectMfaType.loader, context, browser, "/auth/select-mfa-type");
    expect(page.data).toMatchObject({ purpose: "setup", types: ["TOTP", "EMAIL"] });
    const chosen = await call(selectMfaType.action, context, browser, "/auth/select-mfa-type", {
      mfa_type: "TOTP",
    });
    expect(chosen.location).toBe("/auth/setup-totp");
    expect(context.cookies.authPending.read(browser.header)?.totpSecret).toBeTruthy();
  });

  it("CUSTOM_CHALLENGE: any non-empty answer goes to Cognito, which judges it", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.CUSTOM_CHALLENGE.200.json",
      RespondToAuthChallenge: "RespondToAuthChallenge.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    const started = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(started.location).toBe("/auth/confirm-sign-in");
    const page = await call(confirmSignIn.loader, context, browser, "/auth/confirm-sign-in");
    expect(page.data).toMatchObject({ kind: "custom" });
    const empty = await call(confirmSignIn.action, context, browser, "/auth/confirm-sign-in", {
      confirmation_code: "  ",
    });
    expect(empty.status).toBe(400);
    const done = await call(confirmSignIn.action, context, browser, "/auth/confirm-sign-in", {
      confirmation_code: "azul marino",
    });
    expect(done.location).toBe("/my-account");
    expect(stub.calls.at(-2)!.body).toMatchObject({
      ChallengeName: "CUSTOM_CHALLENGE",
      ChallengeResponses: { ANSWER: "azul marino" },
    });
  });

  it("NEW_PASSWORD_REQUIRED with a pool's own required attribute: asks for it and sends it", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.NEW_PASSWORD_REQUIRED-custom.200.json",
      RespondToAuthChallenge: "RespondToAuthChallenge.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    const started = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(started.location).toBe("/auth/force-new-password");
    const page = await call(forceNewPassword.loader, context, browser, "/auth/force-new-password");
    expect(page.data).toMatchObject({ attributes: ["custom:rfc", "given_name"] });
    const missing = await call(
      forceNewPassword.action,
      context,
      browser,
      "/auth/force-new-password",
      { password: "Nueva-Clave-77", confirm_password: "Nueva-Clave-77", given_name: "María" },
    );
    expect(missing.status).toBe(400);
    // The reply names the message; the page shows it in Spanish ("Este dato es obligatorio.").
    expect((missing.data as { error?: Record<string, string[]> }).error?.["custom:rfc"]).toEqual([
      "auth:validation.attributeRequired",
    ]);
    const done = await call(forceNewPassword.action, context, browser, "/auth/force-new-password", {
      password: "Nueva-Clave-77",
      confirm_password: "Nueva-Clave-77",
      given_name: "María",
      "custom:rfc": "HEGM900521AB1",
    });
    expect(done.status).toBe(303);
    expect(signedIn(context, browser)).not.toBeNull();
    const answered = stub.calls.find((c) => c.operation === "RespondToAuthChallenge")!;
    expect(answered.body.ChallengeResponses).toMatchObject({
      USERNAME: SUB,
      NEW_PASSWORD: "Nueva-Clave-77",
      "userAttributes.custom:rfc": "HEGM900521AB1",
      "userAttributes.given_name": "María",
    });
  });

  it("EMAIL_OTP: asks for the emailed code and answers with Cognito's user name", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.EMAIL_OTP.200.json",
      RespondToAuthChallenge: [
        "RespondToAuthChallenge.CodeMismatch.400.json",
        "RespondToAuthChallenge.tokens.200.json",
      ],
      GetUser: "GetUser.200.json",
    });
    const started = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(started.location).toBe("/auth/confirm-sign-in");
    const page = await call(confirmSignIn.loader, context, browser, "/auth/confirm-sign-in");
    expect(page.data).toMatchObject({
      kind: "email",
      title: "Código por correo",
      destination: "m***@e***",
    });

    const wrong = await call(confirmSignIn.action, context, browser, "/auth/confirm-sign-in", {
      confirmation_code: "000000",
    });
    expect(formErrors(wrong)).toEqual([
      "Código de verificación no válido. Revísalo e inténtalo de nuevo.",
    ]);
    const done = await call(confirmSignIn.action, context, browser, "/auth/confirm-sign-in", {
      confirmation_code: "246810",
    });
    expect(done.location).toBe("/my-account");
    expect(stub.calls.at(-2)!.body).toMatchObject({
      ChallengeName: "EMAIL_OTP",
      ChallengeResponses: { USERNAME: SUB, EMAIL_OTP_CODE: "246810" },
    });
    expect(signedIn(context, browser)).not.toBeNull();
  });

  it("an expired challenge session goes back to sign-in with the spec's explanation", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.EMAIL_OTP.200.json",
      RespondToAuthChallenge: "RespondToAuthChallenge.SessionExpired.400.json",
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const outcome = await call(confirmSignIn.action, context, browser, "/auth/confirm-sign-in", {
      confirmation_code: "123456",
    });
    expect(outcome.location).toMatch(/^\/auth\/sign-in(\?|$)/);
    expect(flashKey(context, browser)).toBe("auth:errors.signInStateExpired");
    expect(context.cookies.authPending.read(browser.header)).toBeNull();
  });

  it("a sign-in is refused while signed in", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(signedIn(context, browser)).not.toBeNull();
    const again = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(again.location).toBe("/my-account");
    expect(flashKey(context, browser)).toBe("auth:errors.alreadySignedIn");
    expect(stub.operations().filter((op) => op === "InitiateAuth")).toHaveLength(1);
  });
});

describe("automatic sign-in after sign-up (USER_AUTH with ConfirmSignUp's session)", () => {
  const signUpForm = {
    username: EMAIL,
    password: PASSWORD,
    confirm_password: PASSWORD,
    country_code: "MX",
    redirectTo: "/my-account/recarga",
  };
  const signUpSession = (fixture("SignUp.Session.200.json").body as { Session: string }).Session;
  const confirmedSession = (fixture("ConfirmSignUp.Session.200.json").body as { Session: string })
    .Session;

  it("the code confirmed within the window signs the customer in where they were going, no password", async () => {
    const { stub, context, browser } = await stubbed({
      SignUp: "SignUp.Session.200.json",
      ConfirmSignUp: "ConfirmSignUp.Session.200.json",
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    const signedUp = await call(signUp.action, context, browser, "/auth/sign-up", signUpForm);
    expect(signedUp.location).toBe("/auth/confirm-sign-up");
    const confirmed = await call(confirmSignUp.action, context, browser, "/auth/confirm-sign-up", {
      intent: "confirm",
      username: EMAIL,
      confirmation_code: "123456",
    });
    expect(confirmed.location).toBe("/my-account/recarga");
    expect(signedIn(context, browser)).not.toBeNull();
    expect(flashKey(context, browser)).toBe("auth:flash.signUpSignedIn");
    const confirmCall = stub.calls.find((c) => c.operation === "ConfirmSignUp")!;
    expect(confirmCall.body.Session).toBe(signUpSession);
    const initiate = stub.calls.find((c) => c.operation === "InitiateAuth")!;
    expect(initiate.body).toMatchObject({
      AuthFlow: "USER_AUTH",
      AuthParameters: { USERNAME: EMAIL },
      Session: confirmedSession,
    });
    // The password was used once, at sign-up, and is kept nowhere.
    expect(JSON.stringify(initiate.body)).not.toContain(PASSWORD);
    expect(browser.header).not.toContain(PASSWORD);
  });

  it("a session Cognito no longer accepts: the account is confirmed, sign-in says why (the spec's path)", async () => {
    const { context, browser } = await stubbed({
      SignUp: "SignUp.Session.200.json",
      ConfirmSignUp: "ConfirmSignUp.Session.200.json",
      InitiateAuth: "RespondToAuthChallenge.SessionExpired.400.json",
    });
    await call(signUp.action, context, browser, "/auth/sign-up", signUpForm);
    const confirmed = await call(confirmSignUp.action, context, browser, "/auth/confirm-sign-up", {
      intent: "confirm",
      username: EMAIL,
      confirmation_code: "123456",
    });
    expect(confirmed.location).toBe(
      `/auth/sign-in?redirectTo=${encodeURIComponent("/my-account/recarga")}`,
    );
    expect(signedIn(context, browser)).toBeNull();
    expect(flashKey(context, browser)).toBe("auth:flash.notConfirmedOnTime");
    const page = await call(signIn.loader, context, browser, "/auth/sign-in");
    expect(page.data).toMatchObject({ username: EMAIL });
  });

  it("after the 180 s window the session is not sent, and sign-in says the account was not confirmed on time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { stub, context, browser } = await stubbed({
        SignUp: "SignUp.Session.200.json",
        ConfirmSignUp: "ConfirmSignUp.200.json",
      });
      await call(signUp.action, context, browser, "/auth/sign-up", signUpForm);
      vi.advanceTimersByTime(181_000);
      const page = await call(confirmSignUp.loader, context, browser, "/auth/confirm-sign-up");
      expect(page.data).toMatchObject({ username: EMAIL });
      const confirmed = await call(
        confirmSignUp.action,
        context,
        browser,
        "/auth/confirm-sign-up",
        { intent: "confirm", username: EMAIL, confirmation_code: "123456" },
      );
      expect(confirmed.location).toMatch(/^\/auth\/sign-in/);
      expect(flashKey(context, browser)).toBe("auth:flash.notConfirmedOnTime");
      const confirmCall = stub.calls.find((c) => c.operation === "ConfirmSignUp")!;
      expect(confirmCall.body).not.toHaveProperty("Session");
      expect(stub.operations()).not.toContain("InitiateAuth");
    } finally {
      vi.useRealTimers();
    }
  });

  it("a pool without sign-up sessions (no USER_AUTH for the client): confirmed, then sign-in as before", async () => {
    const { context, browser } = await stubbed({
      SignUp: "SignUp.Session.200.json",
      ConfirmSignUp: "ConfirmSignUp.200.json",
    });
    const form = { ...signUpForm, redirectTo: "" };
    await call(signUp.action, context, browser, "/auth/sign-up", form);
    // Another browser (no pending state) confirming the same account.
    const other = new Browser();
    const confirmed = await call(confirmSignUp.action, context, other, "/auth/confirm-sign-up", {
      intent: "confirm",
      username: EMAIL,
      confirmation_code: "123456",
    });
    expect(confirmed.location).toBe("/auth/sign-in");
    expect(flashKey(context, other)).toBe("auth:flash.signUpConfirmed");
  });
});

describe("throttling and code errors", () => {
  it("LimitExceeded on a password reset: 429 with the Spanish message", async () => {
    const { context, browser } = await stubbed({
      ForgotPassword: "ForgotPassword.LimitExceeded.400.json",
    });
    const outcome = await call(forgotPassword.action, context, browser, "/auth/forgot-password", {
      username: EMAIL,
    });
    expect(outcome.status).toBe(429);
    expect(formErrors(outcome)).toEqual([
      "Se superó el límite de intentos. Inténtalo de nuevo más tarde.",
    ]);
  });

  it("an address without an account gets the same answer as one with an account", async () => {
    const { context } = await stubbed({
      ForgotPassword: ["ForgotPassword.200.json", "ForgotPassword.UserNotFound.400.json"],
    });
    const answers = [];
    for (const username of [EMAIL, "nadie@ejemplo.mx"]) {
      const browser = new Browser();
      const outcome = await call(forgotPassword.action, context, browser, "/auth/forgot-password", {
        username,
      });
      answers.push({ status: outcome.status, location: outcome.location });
      expect(flashKey(context, browser)).toBe("auth:flash.resetCodeSent");
      expect(context.cookies.authPending.read(browser.header)?.delivery).toEqual({
        destination: username,
        medium: "EMAIL",
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toEqual({ status: 303, location: "/auth/confirm-reset-password" });
  });

  it("TooManyFailedAttempts on a confirmation code: 429 with the Spanish message", async () => {
    const { context, browser } = await stubbed({
      ConfirmSignUp: "ConfirmSignUp.TooManyFailedAttempts.400.json",
    });
    const outcome = await call(confirmSignUp.action, context, browser, "/auth/confirm-sign-up", {
      intent: "confirm",
      username: EMAIL,
      confirmation_code: "123456",
    });
    expect(outcome.status).toBe(429);
    expect(formErrors(outcome)?.[0]).toMatch(/^Demasiados intentos fallidos/);
    expect(JSON.stringify(outcome.data)).not.toContain("123456");
  });

  it("“User is already confirmed.” on resend counts as success", async () => {
    const { context, browser } = await stubbed({
      ResendConfirmationCode: "ResendConfirmationCode.AlreadyConfirmed.400.json",
    });
    const outcome = await call(confirmSignUp.action, context, browser, "/auth/confirm-sign-up", {
      intent: "resend",
      username: EMAIL,
    });
    expect(outcome.location).toBe("/auth/sign-in");
    expect(flashKey(context, browser)).toBe("auth:flash.alreadyConfirmed");
  });

  it("signing up with a taken email says so in Spanish", async () => {
    const { context, browser } = await stubbed({ SignUp: "SignUp.UsernameExists.400.json" });
    const outcome = await call(signUp.action, context, browser, "/auth/sign-up", {
      username: EMAIL,
      password: PASSWORD,
      confirm_password: PASSWORD,
      country_code: "+52",
    });
    expect(formErrors(outcome)).toEqual([
      "Ya existe una cuenta con este correo. Inicia sesión o recupera tu contraseña.",
    ]);
  });

  it("our own limit: the sixth attempt for one username gets a Spanish 429 before Cognito's lockout", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.NotAuthorized.400.json",
    });
    // Real Cognito locks a user out after five failed sign-ins: no sixth may reach it.
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
      expect(outcome.status).toBe(400);
    }
    const refused = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(refused.status).toBe(429);
    expect(formErrors(refused)).toEqual([
      "Demasiados intentos. Espera unos minutos antes de volver a intentarlo o restablece tu contraseña.",
    ]);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(stub.operations()).toHaveLength(5);
  });

  it("our own limit per IP covers many usernames", async () => {
    const { context, browser } = await stubbed(
      { InitiateAuth: "InitiateAuth.NotAuthorized.400.json" },
      { AUTH_RATE_LIMIT_PER_IP: "3" },
    );
    for (let attempt = 0; attempt < 3; attempt++) {
      await call(signIn.action, context, browser, "/auth/sign-in", {
        ...signInForm,
        username: `u${attempt}@ejemplo.mx`,
      });
    }
    const refused = await call(signIn.action, context, browser, "/auth/sign-in", {
      ...signInForm,
      username: "otro@ejemplo.mx",
    });
    expect(refused.status).toBe(429);
  });
});

describe("an unreachable or slow identity service", () => {
  it("refused connection: the Spanish network message, status 503, never a 500", async () => {
    const stub = await startCognitoStub();
    await stub.close();
    const context = await contextFor(stub.url);
    const outcome = await call(signIn.action, context, new Browser(), "/auth/sign-in", signInForm);
    expect(outcome.status).toBe(503);
    expect(formErrors(outcome)?.[0]).toMatch(/^Error de red/);
  });

  it("no answer within COGNITO_TIMEOUT_MS: the same message", async () => {
    const silent = await startSilentServer();
    cleanups.push(silent.close);
    const context = await contextFor(silent.url);
    const started = Date.now();
    const outcome = await call(
      forgotPassword.action,
      context,
      new Browser(),
      "/auth/forgot-password",
      { username: EMAIL },
    );
    expect(outcome.status).toBe(503);
    expect(formErrors(outcome)?.[0]).toMatch(/^Error de red/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a refresh that cannot reach Cognito keeps the session; a revoked refresh token ends it", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: ["InitiateAuth.tokens.200.json", "InitiateAuth.RefreshRevoked.400.json"],
      GetUser: "GetUser.200.json",
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const session = signedIn(context, browser)!;
    // Make the stored access token look about to expire.
    const [head, , signature] = session.accessToken.split(".");
    const soon = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 30 })).toString(
      "base64url",
    );
    // (The fixture's tokens were issued long ago: measure no clock drift from them.)
    browser.keep(
      context.cookies.authSession.write(
        { ...session, clockDrift: 0, accessToken: `${head}.${soon}.${signature}` },
        browser.header,
      ),
    );

    const unreachable = await requestContext(await contextFor("http://127.0.0.1:9/"), browser);
    expect(unreachable.session?.customer.email).toBe(EMAIL);
    expect(unreachable.jar.setCookieHeaders({ redirect: false })).toEqual([]);

    const refused = await requestContext(context, browser);
    expect(refused.session).toBeNull();
    browser.keep(refused.jar.setCookieHeaders({ redirect: false }));
    expect(signedIn(context, browser)).toBeNull();
  });
});

describe("the account page asks Cognito nothing on an ordinary view (issue 18)", () => {
  const withTotp = {
    status: 200,
    body: {
      ...(fixture("GetUser.200.json").body as object),
      UserMFASettingList: ["SOFTWARE_TOKEN_MFA"],
      PreferredMfaSetting: "SOFTWARE_TOKEN_MFA",
    },
  };

  it("the MFA settings read at sign-in are kept in the session; views make no GetUser", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: () => withTotp,
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(signedIn(context, browser)?.mfa).toEqual({
      enabled: ["SOFTWARE_TOKEN_MFA"],
      preferred: "SOFTWARE_TOKEN_MFA",
    });
    const before = stub.operations().length;
    for (let view = 0; view < 3; view++) {
      const page = await call(myAccount.loader, context, browser, "/my-account");
      expect(page.data).toMatchObject({
        available: true,
        email: EMAIL,
        enabledMfa: ["TOTP"],
        preferredMfa: "TOTP",
      });
    }
    expect(stub.operations().slice(before)).toEqual([]);
  });

  it("a session from before the settings were kept reads them once, then keeps them", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const { mfa: _kept, ...older } = signedIn(context, browser)!;
    browser.keep(context.cookies.authSession.write(older, browser.header));
    const before = stub.operations().length;
    await call(myAccount.loader, context, browser, "/my-account");
    await call(myAccount.loader, context, browser, "/my-account");
    expect(stub.operations().slice(before)).toEqual(["GetUser"]);
    expect(signedIn(context, browser)?.mfa).toEqual({ enabled: [], preferred: null });
  });

  it("a token refresh reads the settings again (set up from another device meanwhile)", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: ["InitiateAuth.tokens.200.json", "InitiateAuth.tokens.200.json"],
      GetUser: ["GetUser.200.json", () => withTotp],
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const session = signedIn(context, browser)!;
    expect(session.mfa).toEqual({ enabled: [], preferred: null });
    const [head, , signature] = session.accessToken.split(".");
    const soon = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 30 })).toString(
      "base64url",
    );
    browser.keep(
      context.cookies.authSession.write(
        { ...session, clockDrift: 0, accessToken: `${head}.${soon}.${signature}` },
        browser.header,
      ),
    );
    const refreshed = await requestContext(context, browser);
    expect(refreshed.session?.tokens.mfa).toEqual({
      enabled: ["SOFTWARE_TOKEN_MFA"],
      preferred: "SOFTWARE_TOKEN_MFA",
    });
  });

  it("changing the preferred method updates what the session keeps", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: () => withTotp,
      SetUserMFAPreference: () => ({ status: 200, body: {} }),
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const off = await call(myAccount.action, context, browser, "/my-account", { mfa_type: "NONE" });
    expect(off.location).toBe("/my-account");
    expect(signedIn(context, browser)?.mfa).toEqual({ enabled: [], preferred: null });
    const page = await call(myAccount.loader, context, browser, "/my-account");
    expect(page.data).toMatchObject({ enabledMfa: [], preferredMfa: null });
  });
});

describe("USER_SRP_AUTH (real Cognito's flow; the emulator has none)", () => {
  it("proves the password with SRP and never sends it", async () => {
    const srp = srpServer({
      poolName: POOL.split("_")[1],
      userId: SUB,
      password: PASSWORD,
      tokens,
    });
    const { stub, context, browser } = await stubbed(
      {
        InitiateAuth: (body) => srp.initiateAuth(body),
        RespondToAuthChallenge: (body) => srp.respondToAuthChallenge(body),
        GetUser: "GetUser.200.json",
      },
      { COGNITO_AUTH_FLOW: "USER_SRP_AUTH" },
    );
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    expect(outcome.location).toBe("/my-account");
    expect(signedIn(context, browser)?.signInDetails).toEqual({
      loginId: EMAIL,
      authFlowType: "USER_SRP_AUTH",
    });
    expect(stub.calls[0].body).toMatchObject({
      AuthFlow: "USER_SRP_AUTH",
      AuthParameters: { USERNAME: EMAIL },
    });
    expect(JSON.stringify(stub.calls)).not.toContain(PASSWORD);
  });

  it("a wrong password fails the SRP proof", async () => {
    const srp = srpServer({
      poolName: POOL.split("_")[1],
      userId: SUB,
      password: PASSWORD,
      tokens,
    });
    const { context, browser } = await stubbed(
      {
        InitiateAuth: (body) => srp.initiateAuth(body),
        RespondToAuthChallenge: (body) => srp.respondToAuthChallenge(body),
      },
      { COGNITO_AUTH_FLOW: "USER_SRP_AUTH" },
    );
    const outcome = await call(signIn.action, context, browser, "/auth/sign-in", {
      ...signInForm,
      password: "Otra-Clave-99",
    });
    expect(formErrors(outcome)).toEqual(["Correo o contraseña incorrectos."]);
  });
});

describe("sign-out", () => {
  it("revokes the refresh token and clears every auth cookie", async () => {
    const { stub, context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
      RevokeToken: (() => ({ status: 200, body: {} })) as never,
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const refreshToken = signedIn(context, browser)!.refreshToken;
    const outcome = await call(signOut.action, context, browser, "/auth/sign-out", {});
    expect(outcome.location).toBe("/");
    expect(stub.calls.at(-1)).toMatchObject({
      operation: "RevokeToken",
      body: { ClientId: CLIENT, Token: refreshToken },
    });
    expect(
      [...parseCookieHeader(browser.header).keys()].filter((name) => name.startsWith("auth_")),
    ).toEqual([]);
  });

  it("ends the session for a copy of the cookie kept from before the sign-out", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
      RevokeToken: (() => ({ status: 200, body: {} })) as never,
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    const copy = new Browser();
    copy.cookies = new Map(browser.cookies);
    expect((await requestContext(context, copy)).session).not.toBeNull();
    await call(signOut.action, context, browser, "/auth/sign-out", {});
    const afterwards = await requestContext(context, copy);
    expect(afterwards.session).toBeNull();
    // The copy's session cookie is removed too.
    expect(
      afterwards.jar
        .setCookieHeaders({ redirect: false })
        .every((line) => line.includes("Max-Age=0")),
    ).toBe(true);
  });

  it("still signs out when revocation is not supported", async () => {
    const { context, browser } = await stubbed({
      InitiateAuth: "InitiateAuth.tokens.200.json",
      GetUser: "GetUser.200.json",
      RevokeToken: "RevokeToken.UnsupportedOperation.400.json",
    });
    await call(signIn.action, context, browser, "/auth/sign-in", signInForm);
    await call(signOut.action, context, browser, "/auth/sign-out", {});
    expect(signedIn(context, browser)).toBeNull();
  });
});

describe("the development outbox", () => {
  it("does not exist when a real pool, an SMTP server and an SMSC are configured", async () => {
    // Nothing is captured then: codes go through Cognito, e-mails through SMTP, SMS over SMPP.
    const { context, browser } = await stubbed(
      {},
      {
        SMTP_URL: "smtp://127.0.0.1:2525",
        SMS_PROVIDER: "smpp",
        SMPP_URL: "smpp://127.0.0.1:2775",
        SMPP_SYSTEM_ID: "tienda",
        SMPP_PASSWORD: "secreto",
        SMPP_SOURCE_ADDR: "ConectaMov",
      },
    );
    const outcome = await call(outbox.loader, context, browser, "/dev/outbox");
    expect(outcome.status).toBe(404);
  });
});
