import { describe, expect, it } from "vitest";
import {
  afterSignInView,
  challengeResponseKey,
  parseMfaTypes,
  resetPasswordNextStep,
  signInNextStep,
  signUpNextStep,
  unverifiedContacts,
  type AuthResponse,
} from "./steps";

const tokens = { AccessToken: "a", IdToken: "i", RefreshToken: "r" };
const respond = (response: AuthResponse) => signInNextStep({ type: "response", response });
const challenge = (name: string, parameters: Record<string, string> = {}) =>
  respond({ ChallengeName: name, Session: "s", ChallengeParameters: parameters });

describe("signInNextStep: the Cognito result → the next view (spec §4)", () => {
  it("DONE: tokens start the session (no view)", () => {
    expect(respond({ AuthenticationResult: tokens })).toEqual({ step: "DONE", view: null });
  });

  it("DONE even when cognito-local names its password check next to the tokens", () => {
    expect(respond({ ChallengeName: "PASSWORD_VERIFIER", AuthenticationResult: tokens })).toEqual({
      step: "DONE",
      view: null,
    });
  });

  it("CONFIRM_SIGN_UP: an unconfirmed user goes to confirm-sign-up", () => {
    expect(signInNextStep({ type: "error", name: "UserNotConfirmedException" })).toEqual({
      step: "CONFIRM_SIGN_UP",
      view: "confirm-sign-up",
    });
  });

  it("RESET_PASSWORD: a required reset goes to the reset flow", () => {
    expect(signInNextStep({ type: "error", name: "PasswordResetRequiredException" })).toEqual({
      step: "RESET_PASSWORD",
      view: "confirm-reset-password",
    });
  });

  it("other exceptions stay on the form as errors", () => {
    expect(signInNextStep({ type: "error", name: "NotAuthorizedException" })).toBeNull();
  });

  it("CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED → force-new-password", () => {
    expect(challenge("NEW_PASSWORD_REQUIRED")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED",
      view: "force-new-password",
    });
  });

  it("CONFIRM_SIGN_IN_WITH_SMS_CODE (SMS_MFA) → confirm-sign-in", () => {
    expect(challenge("SMS_MFA")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_SMS_CODE",
      view: "confirm-sign-in",
    });
  });

  it("CONFIRM_SIGN_IN_WITH_TOTP_CODE (SOFTWARE_TOKEN_MFA) → confirm-sign-in", () => {
    expect(challenge("SOFTWARE_TOKEN_MFA")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_TOTP_CODE",
      view: "confirm-sign-in",
    });
  });

  it("CONFIRM_SIGN_IN_WITH_EMAIL_CODE (EMAIL_OTP) → confirm-sign-in", () => {
    expect(challenge("EMAIL_OTP")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_EMAIL_CODE",
      view: "confirm-sign-in",
    });
  });

  it("CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE → confirm-sign-in", () => {
    expect(challenge("CUSTOM_CHALLENGE")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE",
      view: "confirm-sign-in",
    });
  });

  it("CONFIRM_SIGN_IN_WITH_PASSWORD → sign-in (the password is asked again)", () => {
    expect(challenge("PASSWORD")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_PASSWORD",
      view: "sign-in",
    });
    expect(challenge("PASSWORD_SRP")).toEqual({
      step: "CONFIRM_SIGN_IN_WITH_PASSWORD",
      view: "sign-in",
    });
  });

  it("CONTINUE_SIGN_IN_WITH_MFA_SELECTION (SELECT_MFA_TYPE) → select-mfa-type", () => {
    expect(
      challenge("SELECT_MFA_TYPE", { MFAS_CAN_CHOOSE: '["SMS_MFA","SOFTWARE_TOKEN_MFA"]' }),
    ).toEqual({
      step: "CONTINUE_SIGN_IN_WITH_MFA_SELECTION",
      view: "select-mfa-type",
    });
  });

  it("CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION: MFA_SETUP offering app and email → select-mfa-type", () => {
    expect(
      challenge("MFA_SETUP", { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA","EMAIL_OTP"]' }),
    ).toEqual({
      step: "CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION",
      view: "select-mfa-type",
    });
  });

  it("CONTINUE_SIGN_IN_WITH_TOTP_SETUP: MFA_SETUP offering only an app → setup-totp", () => {
    expect(challenge("MFA_SETUP", { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA","SMS_MFA"]' })).toEqual({
      step: "CONTINUE_SIGN_IN_WITH_TOTP_SETUP",
      view: "setup-totp",
    });
  });

  it("CONTINUE_SIGN_IN_WITH_EMAIL_SETUP: MFA_SETUP offering only email → setup-email", () => {
    expect(challenge("MFA_SETUP", { MFAS_CAN_SETUP: '["EMAIL_OTP"]' })).toEqual({
      step: "CONTINUE_SIGN_IN_WITH_EMAIL_SETUP",
      view: "setup-email",
    });
  });

  it("CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION (SELECT_CHALLENGE) → its own view", () => {
    expect(challenge("SELECT_CHALLENGE")).toEqual({
      step: "CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION",
      view: "select-first-factor",
    });
  });

  it("an unknown challenge, or MFA_SETUP with nothing to set up, is unhandled", () => {
    expect(challenge("DEVICE_SRP_AUTH")).toEqual({
      step: null,
      unhandledChallenge: "DEVICE_SRP_AUTH",
    });
    expect(challenge("MFA_SETUP", { MFAS_CAN_SETUP: '["SMS_MFA"]' })).toEqual({
      step: null,
      unhandledChallenge: "MFA_SETUP",
    });
  });
});

describe("signUpNextStep", () => {
  it("CONFIRM_SIGN_UP when Cognito waits for the emailed code", () => {
    expect(signUpNextStep({ UserConfirmed: false })).toEqual({
      step: "CONFIRM_SIGN_UP",
      view: "confirm-sign-up",
    });
  });
  it("DONE when the pool confirmed the user at once", () => {
    expect(signUpNextStep({ UserConfirmed: true })).toEqual({ step: "DONE", view: "sign-in" });
  });
  it("COMPLETE_AUTO_SIGN_IN when the pool confirmed the user at once and gave a session", () => {
    expect(signUpNextStep({ UserConfirmed: true, Session: "s" })).toEqual({
      step: "COMPLETE_AUTO_SIGN_IN",
      view: "sign-in",
    });
  });
  it("a session does not skip the code: an unconfirmed account confirms first", () => {
    expect(signUpNextStep({ UserConfirmed: false, Session: "s" }).step).toBe("CONFIRM_SIGN_UP");
  });
});

describe("resetPasswordNextStep", () => {
  it("CONFIRM_RESET_PASSWORD_WITH_CODE after the code is sent, then DONE back to sign-in", () => {
    expect(resetPasswordNextStep("code-sent")).toEqual({
      step: "CONFIRM_RESET_PASSWORD_WITH_CODE",
      view: "confirm-reset-password",
    });
    expect(resetPasswordNextStep("password-changed")).toEqual({ step: "DONE", view: "sign-in" });
  });
});

describe("after DONE", () => {
  it("offers verify-user when no contact is verified", () => {
    expect(afterSignInView({ email: "a@b.mx", email_verified: "false" })).toBe("verify-user");
    expect(afterSignInView({ email: "a@b.mx" })).toBe("verify-user");
  });
  it("completes when a contact is verified, or the attributes could not be read", () => {
    expect(afterSignInView({ email: "a@b.mx", email_verified: "true" })).toBeNull();
    expect(
      afterSignInView({
        phone_number: "+525512345678",
        phone_number_verified: "true",
        email: "a@b.mx",
      }),
    ).toBeNull();
    expect(afterSignInView(null)).toBeNull();
  });
  it("lists the unverified contacts", () => {
    expect(
      unverifiedContacts({ email: "a@b.mx", phone_number: "+52", phone_number_verified: "true" }),
    ).toEqual(["email"]);
  });
});

describe("challenge details", () => {
  it("names the code each challenge expects", () => {
    expect(challengeResponseKey("SMS_MFA")).toBe("SMS_MFA_CODE");
    expect(challengeResponseKey("SOFTWARE_TOKEN_MFA")).toBe("SOFTWARE_TOKEN_MFA_CODE");
    expect(challengeResponseKey("EMAIL_OTP")).toBe("EMAIL_OTP_CODE");
    expect(challengeResponseKey("CUSTOM_CHALLENGE")).toBe("ANSWER");
    expect(challengeResponseKey("MFA_SETUP")).toBeNull();
  });
  it("reads Cognito's MFA lists into the product's types", () => {
    expect(parseMfaTypes('["EMAIL_OTP","SMS_MFA","SOFTWARE_TOKEN_MFA"]')).toEqual([
      "TOTP",
      "SMS",
      "EMAIL",
    ]);
    expect(parseMfaTypes("not json")).toEqual([]);
    expect(parseMfaTypes(undefined)).toEqual([]);
  });
});
