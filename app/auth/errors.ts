/**
 * Spec §8's auth messages: a Cognito exception (its name and, where Cognito reuses one name for
 * several causes, its message) → a key of the `auth` namespace (`errors.<key>`) and the HTTP
 * status the form answers with. Pure, so every entry is unit-tested.
 */

export type AuthErrorKey =
  | "incorrectCredentials"
  | "userExists"
  | "userNotFound"
  | "userDisabled"
  | "emailExists"
  | "passwordAttemptsExceeded"
  | "attemptLimitExceeded"
  | "tooManyFailedAttempts"
  | "tooManyRequests"
  | "invalidCode"
  | "expiredCode"
  | "cannotResetPassword"
  | "usernameClientNotFound"
  | "network"
  | "configuration"
  | "invalidPasswordPolicy"
  | "userNotConfirmed"
  | "alreadyConfirmed"
  | "passwordResetRequired"
  | "signInStateExpired"
  | "alreadySignedIn"
  | "invalidTokens"
  | "noSessionAfterSignIn"
  | "unhandledChallenge"
  | "mfaSetupInvalidResponse"
  | "codeDeliveryFailed"
  | "unsupportedByEmulator"
  | "rateLimited"
  | "tooManyCodes"
  | "serviceBusy"
  | "totpSetupExpired"
  | "passkeyUnavailable"
  | "passkeyRefused"
  | "passkeyRelyingPartyMismatch"
  | "passkeyNotSupported"
  | "passkeyExpired"
  | "passkeysNotEnabled"
  | "deviceNotFound"
  | "passkeyNotFound"
  | "unknown";

export interface AuthErrorMapping {
  key: AuthErrorKey;
  status: 400 | 401 | 429 | 503;
}

/** The Cognito operation that failed; a few names mean different things per operation. */
export type CognitoOperation =
  | "InitiateAuth"
  | "RespondToAuthChallenge"
  | "SignUp"
  | "ConfirmSignUp"
  | "ResendConfirmationCode"
  | "ForgotPassword"
  | "ConfirmForgotPassword"
  | "GetUser"
  | "GetUserAttributeVerificationCode"
  | "VerifyUserAttribute"
  | "AssociateSoftwareToken"
  | "VerifySoftwareToken"
  | "SetUserMFAPreference"
  | "RevokeToken"
  | "GlobalSignOut"
  | "StartWebAuthnRegistration"
  | "CompleteWebAuthnRegistration"
  | "ListWebAuthnCredentials"
  | "DeleteWebAuthnCredential"
  | "ConfirmDevice"
  | "UpdateDeviceStatus"
  | "ListDevices"
  | "ForgetDevice";

/** The exception name this code gives to a request that never got an answer. */
export const NETWORK_ERROR = "NetworkError";

const has = (message: string, fragment: string) =>
  message.toLowerCase().includes(fragment.toLowerCase());

export function mapCognitoError(
  name: string,
  message: string = "",
  operation?: CognitoOperation,
): AuthErrorMapping {
  // Some stacks send "namespace#Name"; Cognito's own JSON sends the bare name.
  const code = name.includes("#") ? name.slice(name.lastIndexOf("#") + 1) : name;
  switch (code) {
    case NETWORK_ERROR:
      return { key: "network", status: 503 };
    case "NotAuthorizedException":
      if (has(message, "User is disabled")) return { key: "userDisabled", status: 400 };
      if (has(message, "Password attempts exceeded")) {
        return { key: "passwordAttemptsExceeded", status: 429 };
      }
      if (has(message, "session is expired") || has(message, "Invalid session")) {
        return { key: "signInStateExpired", status: 400 };
      }
      if (has(message, "Current status is CONFIRMED")) {
        return { key: "alreadyConfirmed", status: 400 };
      }
      if (has(message, "Access Token") || has(message, "Invalid Refresh Token")) {
        return { key: "invalidTokens", status: 401 };
      }
      return { key: "incorrectCredentials", status: 400 };
    case "InvalidPasswordException":
      // The emulator answers a wrong password on sign-in with this name (real Cognito sends
      // NotAuthorizedException); elsewhere it means the new password breaks the pool's policy.
      return operation === "InitiateAuth" || operation === "RespondToAuthChallenge"
        ? { key: "incorrectCredentials", status: 400 }
        : { key: "invalidPasswordPolicy", status: 400 };
    case "UsernameExistsException":
      return { key: "userExists", status: 400 };
    case "AliasExistsException":
      return { key: "emailExists", status: 400 };
    case "UserNotFoundException":
      // Signing in, an unknown email reads like a wrong password; a code for an unknown email
      // reads like a wrong code, as Cognito answers with PreventUserExistenceErrors.
      if (operation === "InitiateAuth") return { key: "incorrectCredentials", status: 400 };
      if (operation === "ConfirmForgotPassword" || operation === "ConfirmSignUp") {
        return { key: "invalidCode", status: 400 };
      }
      return { key: "userNotFound", status: 400 };
    case "LimitExceededException":
      return { key: "attemptLimitExceeded", status: 429 };
    case "TooManyFailedAttemptsException":
      return { key: "tooManyFailedAttempts", status: 429 };
    case "TooManyRequestsException":
      return { key: "tooManyRequests", status: 429 };
    case "CodeMismatchException":
    case "EnableSoftwareTokenMFAException":
      return { key: "invalidCode", status: 400 };
    case "ExpiredCodeException":
      return { key: "expiredCode", status: 400 };
    case "InvalidParameterException":
      if (has(message, "already confirmed")) return { key: "alreadyConfirmed", status: 400 };
      if (has(message, "Cannot reset password")) return { key: "cannotResetPassword", status: 400 };
      if (has(message, "no registered/verified email or phone_number")) {
        return { key: "cannotResetPassword", status: 400 };
      }
      return { key: "unknown", status: 400 };
    case "ResourceNotFoundException":
      if (has(message, "Username/client id combination not found")) {
        return { key: "usernameClientNotFound", status: 400 };
      }
      // A forgotten or unknown remembered device ("Device does not exist."), decision 0123.
      if (has(message, "device")) return { key: "deviceNotFound", status: 400 };
      return { key: "configuration", status: 503 };
    // Passkeys (decision 0122): the pool's relying party is not this site's, or the browser's
    // origin is not one the pool allows: the passkey was made for another site.
    case "WebAuthnRelyingPartyMismatchException":
    case "WebAuthnOriginNotAllowedException":
      return { key: "passkeyRelyingPartyMismatch", status: 400 };
    case "WebAuthnCredentialNotSupportedException":
      return { key: "passkeyNotSupported", status: 400 };
    case "WebAuthnChallengeNotFoundException":
      return { key: "passkeyExpired", status: 400 };
    case "WebAuthnNotEnabledException":
    case "WebAuthnConfigurationMissingException":
    case "WebAuthnClientMismatchException":
      return { key: "passkeysNotEnabled", status: 503 };
    case "UserPoolTaggingException":
    case "InvalidUserPoolConfigurationException":
    case "InvalidEmailRoleAccessPolicyException":
    case "InvalidSmsRoleAccessPolicyException":
    case "InvalidSmsRoleTrustRelationshipException":
      return { key: "configuration", status: 503 };
    case "UserNotConfirmedException":
      return { key: "userNotConfirmed", status: 400 };
    case "PasswordResetRequiredException":
      return { key: "passwordResetRequired", status: 400 };
    case "CodeDeliveryFailureException":
      return { key: "codeDeliveryFailed", status: 503 };
    case "Unsupported":
      // cognito-local's "CognitoLocal#Unsupported": a gap of the development emulator.
      return { key: "unsupportedByEmulator", status: 503 };
    case "InternalErrorException":
    case "ServiceUnavailableException":
      return { key: "network", status: 503 };
    default:
      return { key: "unknown", status: 400 };
  }
}

/**
 * Whether a refused password-reset request is answered as if the code went out: an unknown
 * address, an account without a verified contact and a disabled account all read the same as a
 * real account, as Cognito's PreventUserExistenceErrors answers, so the form never tells whether
 * an address has an account.
 */
export function answersAsCodeSent(name: string, message: string = ""): boolean {
  const code = name.includes("#") ? name.slice(name.lastIndexOf("#") + 1) : name;
  if (code === "UserNotFoundException") return true;
  if (code === "NotAuthorizedException") return has(message, "User is disabled");
  if (code === "InvalidParameterException") {
    return (
      has(message, "Cannot reset password") ||
      has(message, "no registered/verified email or phone_number")
    );
  }
  return false;
}
