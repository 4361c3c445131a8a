/**
 * Where a customer goes next after each answer of the identity service (spec §4). Pure: the
 * route actions call Cognito, hand the answer here and follow the view it names.
 */

/** The views of the spec's sign-in component; each is the route `/auth/<view>`. */
export const AUTH_VIEWS = [
  "sign-in",
  "sign-up",
  "confirm-sign-up",
  "forgot-password",
  "confirm-reset-password",
  "confirm-sign-in",
  "setup-totp",
  "setup-email",
  "select-mfa-type",
  "force-new-password",
  "verify-user",
  "confirm-verify-user",
  "select-first-factor",
] as const;

export type AuthView = (typeof AUTH_VIEWS)[number];

export function authPath(view: AuthView): `/auth/${AuthView}` {
  return `/auth/${view}`;
}

/** Cognito's challenge names (spec §4 "Challenge mapping"). */
export const CHALLENGE = {
  sms: "SMS_MFA",
  totp: "SOFTWARE_TOKEN_MFA",
  email: "EMAIL_OTP",
  setup: "MFA_SETUP",
  selection: "SELECT_MFA_TYPE",
  newPassword: "NEW_PASSWORD_REQUIRED",
  custom: "CUSTOM_CHALLENGE",
  password: "PASSWORD",
  passwordSrp: "PASSWORD_SRP",
  firstFactor: "SELECT_CHALLENGE",
  webAuthn: "WEB_AUTHN",
  smsOtp: "SMS_OTP",
  deviceSrp: "DEVICE_SRP_AUTH",
} as const;

/** The spec's sign-in result steps. */
export type SignInStep =
  | "DONE"
  | "CONFIRM_SIGN_UP"
  | "RESET_PASSWORD"
  | "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED"
  | "CONFIRM_SIGN_IN_WITH_SMS_CODE"
  | "CONFIRM_SIGN_IN_WITH_TOTP_CODE"
  | "CONFIRM_SIGN_IN_WITH_EMAIL_CODE"
  | "CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE"
  | "CONFIRM_SIGN_IN_WITH_PASSWORD"
  | "CONTINUE_SIGN_IN_WITH_MFA_SELECTION"
  | "CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION"
  | "CONTINUE_SIGN_IN_WITH_TOTP_SETUP"
  | "CONTINUE_SIGN_IN_WITH_EMAIL_SETUP"
  | "CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION";

/** The tokens Cognito returns once sign-in completes. */
export interface AuthenticationResult {
  AccessToken: string;
  IdToken: string;
  /** Absent on a refresh: the refresh token stays the same. */
  RefreshToken?: string;
  ExpiresIn?: number;
  TokenType?: string;
  /** A device Cognito has not seen before (device tracking on): it may be confirmed. */
  NewDeviceMetadata?: { DeviceKey: string; DeviceGroupKey: string };
}

/** The body of InitiateAuth and RespondToAuthChallenge. */
export interface AuthResponse {
  ChallengeName?: string;
  Session?: string;
  ChallengeParameters?: Record<string, string>;
  AuthenticationResult?: AuthenticationResult;
  /** SELECT_CHALLENGE's first factors (USER_AUTH). */
  AvailableChallenges?: string[];
}

/** What the service answered: a response body, or the name of the exception it raised. */
export type SignInOutcome =
  { type: "response"; response: AuthResponse } | { type: "error"; name: string };

export type SignInNext =
  | { step: SignInStep; view: AuthView | null }
  /** A challenge this product does not know: the customer sees the spec's library error. */
  | { step: null; unhandledChallenge: string };

/** The MFA types the product names (form field `mfa_type`). */
export type MfaType = "TOTP" | "SMS" | "EMAIL";

const MFA_TYPE_BY_CHALLENGE: Record<string, MfaType> = {
  [CHALLENGE.sms]: "SMS",
  [CHALLENGE.totp]: "TOTP",
  [CHALLENGE.email]: "EMAIL",
};

export const CHALLENGE_BY_MFA_TYPE: Record<MfaType, string> = {
  SMS: CHALLENGE.sms,
  TOTP: CHALLENGE.totp,
  EMAIL: CHALLENGE.email,
};

/**
 * Reads a Cognito list parameter such as MFAS_CAN_CHOOSE (`["SMS_MFA","SOFTWARE_TOKEN_MFA"]`)
 * into the product's MFA types, in a stable order, ignoring anything unknown.
 */
export function parseMfaTypes(raw: string | undefined): MfaType[] {
  if (!raw) return [];
  let names: unknown;
  try {
    names = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(names)) return [];
  const types = new Set(names.map((name) => MFA_TYPE_BY_CHALLENGE[String(name)]).filter(Boolean));
  return (["TOTP", "SMS", "EMAIL"] as const).filter((type) => types.has(type));
}

/** During sign-in only an authenticator app or an email address can be set up. */
export function setupMfaTypes(parameters: Record<string, string> | undefined): MfaType[] {
  return parseMfaTypes(parameters?.MFAS_CAN_SETUP).filter((type) => type !== "SMS");
}

const STEP_BY_CHALLENGE: Record<string, SignInStep> = {
  [CHALLENGE.sms]: "CONFIRM_SIGN_IN_WITH_SMS_CODE",
  [CHALLENGE.totp]: "CONFIRM_SIGN_IN_WITH_TOTP_CODE",
  [CHALLENGE.email]: "CONFIRM_SIGN_IN_WITH_EMAIL_CODE",
  // A code chosen as the first factor (USER_AUTH) is typed on the same view as a second one.
  [CHALLENGE.smsOtp]: "CONFIRM_SIGN_IN_WITH_SMS_CODE",
  [CHALLENGE.newPassword]: "CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED",
  [CHALLENGE.custom]: "CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE",
  [CHALLENGE.password]: "CONFIRM_SIGN_IN_WITH_PASSWORD",
  [CHALLENGE.passwordSrp]: "CONFIRM_SIGN_IN_WITH_PASSWORD",
  [CHALLENGE.selection]: "CONTINUE_SIGN_IN_WITH_MFA_SELECTION",
  [CHALLENGE.firstFactor]: "CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION",
};

/** Each step's screen; DONE has none (the session starts and the customer moves on). */
export const VIEW_BY_STEP: Record<SignInStep, AuthView | null> = {
  DONE: null,
  CONFIRM_SIGN_UP: "confirm-sign-up",
  RESET_PASSWORD: "confirm-reset-password",
  CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED: "force-new-password",
  CONFIRM_SIGN_IN_WITH_SMS_CODE: "confirm-sign-in",
  CONFIRM_SIGN_IN_WITH_TOTP_CODE: "confirm-sign-in",
  CONFIRM_SIGN_IN_WITH_EMAIL_CODE: "confirm-sign-in",
  CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE: "confirm-sign-in",
  // The password is asked again on the sign-in form; it is never kept between requests.
  CONFIRM_SIGN_IN_WITH_PASSWORD: "sign-in",
  CONTINUE_SIGN_IN_WITH_MFA_SELECTION: "select-mfa-type",
  CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION: "select-mfa-type",
  CONTINUE_SIGN_IN_WITH_TOTP_SETUP: "setup-totp",
  CONTINUE_SIGN_IN_WITH_EMAIL_SETUP: "setup-email",
  // USER_AUTH without a preferred first factor: password, passkey or e-mail code (decision 0122).
  CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION: "select-first-factor",
};

/** The Cognito result of a sign-in attempt (or of answering a challenge) → the next step and view. */
export function signInNextStep(outcome: SignInOutcome): SignInNext | null {
  if (outcome.type === "error") {
    if (outcome.name === "UserNotConfirmedException") return next("CONFIRM_SIGN_UP");
    if (outcome.name === "PasswordResetRequiredException") return next("RESET_PASSWORD");
    // Every other exception is shown as an error on the form the customer just sent.
    return null;
  }
  const {
    ChallengeName: challenge,
    ChallengeParameters: parameters,
    AuthenticationResult,
  } = outcome.response;
  // Tokens mean done, whatever else came along (cognito-local names its password check
  // "PASSWORD_VERIFIER" next to the tokens).
  if (AuthenticationResult?.AccessToken) return next("DONE");
  if (!challenge) return { step: null, unhandledChallenge: "(ninguno)" };
  if (challenge === CHALLENGE.setup) {
    const types = setupMfaTypes(parameters);
    if (types.length > 1) return next("CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION");
    if (types[0] === "TOTP") return next("CONTINUE_SIGN_IN_WITH_TOTP_SETUP");
    if (types[0] === "EMAIL") return next("CONTINUE_SIGN_IN_WITH_EMAIL_SETUP");
    return { step: null, unhandledChallenge: challenge };
  }
  const step = STEP_BY_CHALLENGE[challenge];
  return step ? next(step) : { step: null, unhandledChallenge: challenge };
}

function next(step: SignInStep): SignInNext {
  return { step, view: VIEW_BY_STEP[step] };
}

/**
 * The spec's sign-up steps. A code to confirm comes first; an account confirmed at once (a
 * pre-sign-up trigger) with a session signs in automatically, without one goes to sign-in.
 */
export type SignUpStep = "CONFIRM_SIGN_UP" | "COMPLETE_AUTO_SIGN_IN" | "DONE";

export function signUpNextStep(response: { UserConfirmed?: boolean; Session?: string }): {
  step: SignUpStep;
  view: AuthView;
} {
  if (!response.UserConfirmed) return { step: "CONFIRM_SIGN_UP", view: "confirm-sign-up" };
  if (response.Session) return { step: "COMPLETE_AUTO_SIGN_IN", view: "sign-in" };
  return { step: "DONE", view: "sign-in" };
}

/** Forgot password: the code is sent, then confirmed with a new password, then sign-in. */
export type ResetPasswordStep = "CONFIRM_RESET_PASSWORD_WITH_CODE" | "DONE";

export function resetPasswordNextStep(stage: "code-sent" | "password-changed"): {
  step: ResetPasswordStep;
  view: AuthView;
} {
  return stage === "code-sent"
    ? { step: "CONFIRM_RESET_PASSWORD_WITH_CODE", view: "confirm-reset-password" }
    : { step: "DONE", view: "sign-in" };
}

/** User attributes as GetUser returns them, read into a record. */
export type UserAttributes = Record<string, string>;

/** The contact attributes a customer can verify (form field `unverifiedAttr`). */
export type ContactAttribute = "email" | "phone_number";

export function unverifiedContacts(attributes: UserAttributes): ContactAttribute[] {
  return (["email", "phone_number"] as const).filter(
    (name) => attributes[name] && attributes[`${name}_verified`] !== "true",
  );
}

/**
 * After DONE the spec fetches the attributes: with no verified contact the customer is offered
 * verify-user (skip allowed); otherwise, or when the attributes could not be read, sign-in is complete.
 */
export function afterSignInView(attributes: UserAttributes | null): "verify-user" | null {
  if (!attributes) return null;
  const verified =
    attributes.email_verified === "true" || attributes.phone_number_verified === "true";
  if (verified) return null;
  return unverifiedContacts(attributes).length > 0 ? "verify-user" : null;
}

/** The challenge-response key Cognito expects for each code challenge. */
export function challengeResponseKey(challengeName: string): string | null {
  switch (challengeName) {
    case CHALLENGE.sms:
      return "SMS_MFA_CODE";
    case CHALLENGE.totp:
      return "SOFTWARE_TOKEN_MFA_CODE";
    case CHALLENGE.email:
      return "EMAIL_OTP_CODE";
    case CHALLENGE.smsOtp:
      return "SMS_OTP_CODE";
    case CHALLENGE.custom:
      return "ANSWER";
    default:
      return null;
  }
}

/** Challenges answered on the confirm-sign-in view. */
export const CODE_CHALLENGES: readonly string[] = [
  CHALLENGE.sms,
  CHALLENGE.smsOtp,
  CHALLENGE.totp,
  CHALLENGE.email,
  CHALLENGE.custom,
];
