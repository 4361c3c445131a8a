import { describe, expect, it } from "vitest";
import { getFixedT } from "~/i18n/i18n.server";
import { answersAsCodeSent, mapCognitoError, type AuthErrorKey } from "./errors";

const t = getFixedT("auth");

/** Real Cognito exception names and messages (spec §8's auth messages). */
const cases: Array<[string, string, AuthErrorKey, number, Parameters<typeof mapCognitoError>[2]?]> =
  [
    ["NotAuthorizedException", "Incorrect username or password.", "incorrectCredentials", 400],
    ["NotAuthorizedException", "User is disabled.", "userDisabled", 400],
    ["NotAuthorizedException", "Password attempts exceeded", "passwordAttemptsExceeded", 429],
    [
      "NotAuthorizedException",
      "Invalid session for the user, session is expired.",
      "signInStateExpired",
      400,
    ],
    ["NotAuthorizedException", "Access Token has been revoked", "invalidTokens", 401],
    [
      "NotAuthorizedException",
      "User cannot be confirmed. Current status is CONFIRMED",
      "alreadyConfirmed",
      400,
    ],
    [
      "UsernameExistsException",
      "An account with the given email already exists.",
      "userExists",
      400,
    ],
    ["AliasExistsException", "An account with the given email already exists.", "emailExists", 400],
    ["UserNotFoundException", "User does not exist.", "userNotFound", 400, "ForgotPassword"],
    ["UserNotFoundException", "User does not exist.", "incorrectCredentials", 400, "InitiateAuth"],
    // A code typed for an address without an account reads as a wrong code.
    ["UserNotFoundException", "User does not exist.", "invalidCode", 400, "ConfirmForgotPassword"],
    ["UserNotFoundException", "User does not exist.", "invalidCode", 400, "ConfirmSignUp"],
    ["InvalidPasswordException", "Invalid password", "incorrectCredentials", 400, "InitiateAuth"],
    [
      "InvalidPasswordException",
      "Password did not conform with policy: Password not long enough",
      "invalidPasswordPolicy",
      400,
      "SignUp",
    ],
    [
      "LimitExceededException",
      "Attempt limit exceeded, please try after some time.",
      "attemptLimitExceeded",
      429,
    ],
    ["TooManyFailedAttemptsException", "Too many failed attempts.", "tooManyFailedAttempts", 429],
    ["TooManyRequestsException", "Rate exceeded", "tooManyRequests", 429],
    [
      "CodeMismatchException",
      "Invalid verification code provided, please try again.",
      "invalidCode",
      400,
    ],
    [
      "EnableSoftwareTokenMFAException",
      "Code mismatch and fail enable Software Token MFA",
      "invalidCode",
      400,
    ],
    [
      "ExpiredCodeException",
      "Invalid code provided, please request a code again.",
      "expiredCode",
      400,
    ],
    ["InvalidParameterException", "User is already confirmed.", "alreadyConfirmed", 400],
    [
      "InvalidParameterException",
      "Cannot reset password for the user as there is no registered/verified email or phone_number",
      "cannotResetPassword",
      400,
    ],
    [
      "ResourceNotFoundException",
      "Username/client id combination not found.",
      "usernameClientNotFound",
      400,
    ],
    ["ResourceNotFoundException", "User pool client abc does not exist.", "configuration", 503],
    ["UserNotConfirmedException", "User is not confirmed.", "userNotConfirmed", 400],
    [
      "PasswordResetRequiredException",
      "Password reset required for the user",
      "passwordResetRequired",
      400,
    ],
    ["CodeDeliveryFailureException", "Unable to deliver", "codeDeliveryFailed", 503],
    ["CognitoLocal#Unsupported", "Cognito Local unsupported feature", "unsupportedByEmulator", 503],
    ["NetworkError", "Network error", "network", 503],
    ["InternalErrorException", "", "network", 503],
    ["SomethingNewException", "?", "unknown", 400],
  ];

describe("mapCognitoError", () => {
  it.each(cases)("%s “%s” → %s (%i)", (name, message, key, status, operation) => {
    expect(mapCognitoError(name, message, operation)).toEqual({ key, status });
  });

  it("has a Spanish message for every key it can return, and for the library errors", () => {
    const keys = new Set(cases.map(([, , key]) => key));
    for (const key of [
      ...keys,
      "alreadySignedIn",
      "noSessionAfterSignIn",
      "unhandledChallenge",
      "mfaSetupInvalidResponse",
      "rateLimited",
      "tooManyCodes",
      "serviceBusy",
      "accountNotConfirmedInTime",
      "autoSignInNotStarted",
    ]) {
      const text = t(`errors.${key}`);
      expect(text, key).not.toBe(`errors.${key}`);
      expect(text).not.toMatch(/\b(the|user|password|please|attempt|invalid)\b/i);
    }
  });

  it("speaks Spanish for the catalogue's main messages", () => {
    expect(t("errors.incorrectCredentials")).toBe("Correo o contraseña incorrectos.");
    expect(t("errors.network")).toMatch(/^Error de red/);
    expect(t("errors.configuration")).toMatch(/^Error de configuración/);
  });
});

describe("answersAsCodeSent: a password reset tells nothing about the account", () => {
  it("answers an unknown address, a disabled account and one without a verified contact as sent", () => {
    expect(answersAsCodeSent("UserNotFoundException", "User does not exist.")).toBe(true);
    expect(answersAsCodeSent("NotAuthorizedException", "User is disabled.")).toBe(true);
    expect(
      answersAsCodeSent(
        "InvalidParameterException",
        "Cannot reset password for the user as there is no registered/verified email or phone_number",
      ),
    ).toBe(true);
  });

  it("keeps real failures as failures", () => {
    expect(answersAsCodeSent("LimitExceededException", "Attempt limit exceeded")).toBe(false);
    expect(answersAsCodeSent("CodeDeliveryFailureException", "")).toBe(false);
    expect(answersAsCodeSent("NetworkError", "Network error")).toBe(false);
    expect(answersAsCodeSent("InvalidParameterException", "1 validation error")).toBe(false);
  });
});
