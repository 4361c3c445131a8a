import * as z from "zod";
import "~/lib/zod-without-eval";
import { withoutControlCharacters } from "~/lib/control-characters";
import { formMessage } from "~/lib/form-messages";

/**
 * The auth forms' rules (spec §5), shared by each route action (server) and conform (browser).
 * Messages are keys of the `auth` namespace, translated where they are shown (as checkout's).
 */

/** A translator, for the labels this module words (required attributes). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

const message = (key: string) => `auth:validation.${key}`;

/** The pool's password policy, mirrored from configuration (the emulator enforces none). */
export interface PasswordPolicy {
  minLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireNumbers: boolean;
  requireSymbols: boolean;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireNumbers: true,
  requireSymbols: true,
};

/** Spec §5's special characters: ^ $ * . [ ] { } ( ) ? " ! @ # % & / \ , > < ' : ; | _ ~ ` = + - and space. */
export const PASSWORD_SPECIAL_CHARACTERS = "^$*.[]{}()?\"!@#%&/\\,><':;|_~`=+- ";

/** From this many characters in both fields a mismatch is reported while typing (spec §5). */
export const CONFIRM_MATCH_MIN_LENGTH = 6;

const CODE_PATTERN = /^\d{6}$/;

function requiredText(key: string) {
  return z
    .string({ error: message(key) })
    .trim()
    .min(1, message(key));
}

/** The username is the email address (the pool signs in by email). */
export function usernameField() {
  return z
    .string({ error: message("usernameRequired") })
    .trim()
    .min(1, message("usernameRequired"))
    .max(254, message("emailInvalid"))
    .pipe(z.email(message("emailInvalid")))
    .transform((email) => email.toLowerCase());
}

export function confirmationCodeField() {
  return z
    .string({ error: message("codeRequired") })
    .trim()
    .min(1, message("codeRequired"))
    .regex(CODE_PATTERN, message("codeInvalid"));
}

/** The failed rules of the policy, in the order a customer would fix them. */
export function passwordProblems(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  if (password.length < policy.minLength) problems.push("validation.passwordMinLength");
  if (policy.requireLowercase && !/[a-z]/.test(password)) problems.push("validation.passwordLower");
  if (policy.requireUppercase && !/[A-Z]/.test(password)) problems.push("validation.passwordUpper");
  if (policy.requireNumbers && !/\d/.test(password)) problems.push("validation.passwordNumber");
  if (
    policy.requireSymbols &&
    ![...password].some((c) => PASSWORD_SPECIAL_CHARACTERS.includes(c))
  ) {
    problems.push("validation.passwordSpecial");
  }
  // Cognito refuses leading or trailing spaces.
  if (password !== password.trim()) problems.push("validation.passwordFormat");
  return problems;
}

function newPasswordField(policy: PasswordPolicy) {
  return z
    .string({ error: message("passwordRequired") })
    .min(1, message("passwordRequired"))
    .max(256, message("passwordFormat"))
    .superRefine((password, context) => {
      for (const key of passwordProblems(password, policy)) {
        context.addIssue({
          code: "custom",
          message: formMessage(`auth:${key}`, { min: policy.minLength }),
        });
      }
    });
}

/**
 * "Las contraseñas deben coincidir" when the confirmation differs and both are filled. (The
 * spec's second trigger, both at least 6 characters long, is the same rule while typing.)
 */
export function passwordsMismatch(password: string | undefined, confirm: string | undefined) {
  if (!password || !confirm) return false;
  return password !== confirm;
}

function withMatchingConfirmation<T extends { password: string; confirm_password: string }>(
  schema: z.ZodType<T>,
) {
  return schema.refine((values) => !passwordsMismatch(values.password, values.confirm_password), {
    path: ["confirm_password"],
    message: message("passwordsMustMatch"),
    // Judged even while another field is wrong (an e-mail not yet typed): the customer sees the
    // mismatch as they type, as the spec asks, not only once the rest of the form is right.
    when(payload) {
      const values = payload.value as { password?: unknown; confirm_password?: unknown };
      return typeof values?.password === "string" && typeof values?.confirm_password === "string";
    },
  });
}

const redirectToField = z.string().max(2048).optional();

export function signInSchema() {
  return z.object({
    username: usernameField(),
    password: z
      .string({ error: message("passwordRequired") })
      .min(1, message("passwordRequired"))
      .max(256, message("passwordFormat")),
    redirectTo: redirectToField,
  });
}

/** The password typed again before a sensitive change (decision 0134). */
export function reauthenticationSchema() {
  return signInSchema().pick({ password: true, redirectTo: true });
}

/**
 * How the sign-up phone is checked: `PHONE_RULES` of `./countries` (libphonenumber-js). Passed in
 * rather than imported so that its metadata reaches only the sign-up page's bundle, not every
 * auth page that shares this module.
 */
export interface PhoneRules {
  defaultCountry: string;
  /** A country of the list (or a calling code an older page sent). */
  isCountry: (value: string) => boolean;
  /** Whether the number is valid for that country. */
  isValid: (country: string, number: string) => boolean;
}

export function signUpSchema(policy: PasswordPolicy, phone: PhoneRules) {
  const base = z.object({
    username: usernameField(),
    password: newPasswordField(policy),
    confirm_password: requiredText("confirmPasswordRequired"),
    // A country (ISO code, e.g. "MX", "US", "ES"): the phone is checked with its rules (issue 16).
    country_code: z
      .string()
      .trim()
      .refine(phone.isCountry, message("countryInvalid"))
      .default(phone.defaultCountry),
    phone_number: z.string().trim().optional(),
    redirectTo: redirectToField,
  });
  return withMatchingConfirmation(base).superRefine((values, context) => {
    if (values.phone_number && !phone.isValid(values.country_code, values.phone_number)) {
      context.addIssue({
        code: "custom",
        path: ["phone_number"],
        message: message("phoneInvalid"),
      });
    }
  });
}

export function confirmSignUpSchema() {
  return z.object({ username: usernameField(), confirmation_code: confirmationCodeField() });
}

/** Resend a code, or ask for a password reset: only the username. */
export function usernameOnlySchema() {
  return z.object({ username: usernameField() });
}

/** The confirm-sign-up form: its code, or (the "resend" button) the address alone. */
export function confirmSignUpFormSchema(intent: FormDataEntryValue | null) {
  return intent === "resend" ? usernameOnlySchema() : confirmSignUpSchema();
}

/** The confirm-reset form: code and new password, or (the "resend" button) the address alone. */
export function confirmResetPasswordFormSchema(
  intent: FormDataEntryValue | null,
  policy: PasswordPolicy,
) {
  return intent === "resend" ? usernameOnlySchema() : confirmResetPasswordSchema(policy);
}

export function confirmResetPasswordSchema(policy: PasswordPolicy) {
  return withMatchingConfirmation(
    z.object({
      username: usernameField(),
      confirmation_code: confirmationCodeField(),
      password: newPasswordField(policy),
      confirm_password: requiredText("confirmPasswordRequired"),
    }),
  );
}

/** Confirm sign-in needs a challenge response: the code of the SMS, app or email. */
/**
 * The code of an MFA challenge (six digits), or the answer to a custom challenge: whatever the
 * pool's Lambda asks (a word, a longer number), so any non-empty answer goes to Cognito, which
 * judges it (decision 0068).
 */
export function confirmSignInSchema(challenge: "code" | "custom" = "code") {
  if (challenge === "custom") {
    return z.object({
      confirmation_code: z
        .string({ error: message("answerRequired") })
        .trim()
        .min(1, message("answerRequired"))
        .max(CUSTOM_ANSWER_MAX_LENGTH, message("answerTooLong"))
        .check(withoutControlCharacters(message("controlCharacters"))),
    });
  }
  return z.object({ confirmation_code: confirmationCodeField() });
}

/** Cognito's limit on a challenge response's value. */
const CUSTOM_ANSWER_MAX_LENGTH = 2048;

/** The standard attributes Cognito may ask for while forcing a new password. */
export const REQUIRED_ATTRIBUTE_FIELDS = [
  "name",
  "given_name",
  "family_name",
  "middle_name",
  "nickname",
  "preferred_username",
  "birthdate",
  "phone_number",
  "address",
  "gender",
  "locale",
  "website",
  "profile",
  "picture",
  "zoneinfo",
] as const;

/** A pool's own attribute: `custom:` and a name of 1 to 20 characters (Cognito's rule). */
export type CustomAttribute = `custom:${string}`;
export type RequiredAttribute = (typeof REQUIRED_ATTRIBUTE_FIELDS)[number] | CustomAttribute;

const CUSTOM_ATTRIBUTE = /^custom:[\w.-]{1,20}$/;
/** Cognito's longest string attribute value. */
const CUSTOM_ATTRIBUTE_MAX_LENGTH = 2048;

export function isCustomAttribute(name: string): name is CustomAttribute {
  return CUSTOM_ATTRIBUTE.test(name);
}

export function isKnownRequiredAttribute(name: string): name is RequiredAttribute {
  return (REQUIRED_ATTRIBUTE_FIELDS as readonly string[]).includes(name) || isCustomAttribute(name);
}

const ATTRIBUTE_PREFIX = "userAttributes.";

/**
 * Cognito lists the attributes it still needs as `["userAttributes.name", …]` in the
 * NEW_PASSWORD_REQUIRED challenge; the ones this form can ask for, in Cognito's order.
 */
export function requiredAttributesOf(raw: string | undefined): RequiredAttribute[] {
  try {
    const names = JSON.parse(raw ?? "[]") as unknown;
    if (!Array.isArray(names)) return [];
    return names
      .map((name) => String(name).replace(ATTRIBUTE_PREFIX, ""))
      .filter(isKnownRequiredAttribute);
  } catch {
    return [];
  }
}

/** The challenge response's name for an attribute typed in the form. */
export function requiredAttributeResponseKey(name: RequiredAttribute): string {
  return `${ATTRIBUTE_PREFIX}${name}`;
}

/**
 * The Spanish label of a required attribute. A pool's own attributes are labelled in the locale
 * file under `customAttributes.<name>`; one without a label there still gets a Spanish one that
 * names it, so the customer can finish (decision 0068).
 */
export function requiredAttributeLabel(t: Translate, name: RequiredAttribute): string {
  if (!isCustomAttribute(name)) return t(`attributes.${name}`);
  const own = name.slice("custom:".length);
  const key = `customAttributes.${own}`;
  const label = t(key);
  return label && label !== key ? label : t("customAttributeFallback", { name: own });
}

export function forceNewPasswordSchema(
  policy: PasswordPolicy,
  requiredAttributes: readonly RequiredAttribute[] = [],
) {
  const attributeShape: Record<string, z.ZodType<string>> = {};
  for (const name of requiredAttributes) {
    let field = requiredText("attributeRequired");
    if (name === "birthdate") {
      field = field.regex(/^\d{4}-\d{2}-\d{2}$/, message("birthdateInvalid"));
    }
    if (name === "phone_number") {
      field = field.regex(/^\+\d{6,15}$/, message("phoneInvalid"));
    }
    if (isCustomAttribute(name)) {
      field = field.max(CUSTOM_ATTRIBUTE_MAX_LENGTH, message("attributeTooLong"));
    }
    // A name or an address the pool keeps, and shows wherever it is read (decision 0080).
    attributeShape[name] = field.check(withoutControlCharacters(message("controlCharacters")));
  }
  return withMatchingConfirmation(
    z.object({
      password: newPasswordField(policy),
      confirm_password: requiredText("confirmPasswordRequired"),
      ...attributeShape,
    }) as unknown as z.ZodType<
      { password: string; confirm_password: string } & Record<string, string>
    >,
  );
}

/** The authenticator app's first code, after scanning the QR. */
export function setupTotpSchema() {
  return z.object({ confirmation_code: confirmationCodeField() });
}

export function setupEmailSchema() {
  return z.object({
    email: z
      .string({ error: message("emailRequired") })
      .trim()
      .min(1, message("emailRequired"))
      .pipe(z.email(message("emailInvalid"))),
  });
}

export const MFA_TYPES = ["TOTP", "SMS", "EMAIL"] as const;

export function selectMfaTypeSchema() {
  return z.object({ mfa_type: z.enum(MFA_TYPES, message("mfaTypeRequired")) });
}

/** The choice of a second factor, among the ones offered (`types`; TOTP when none is). */
export function selectOfferedMfaTypeSchema(types: readonly (typeof MFA_TYPES)[number][]) {
  return selectMfaTypeSchema().extend({
    mfa_type: z.enum(
      types.length
        ? (types as [(typeof MFA_TYPES)[number], ...(typeof MFA_TYPES)[number][]])
        : ["TOTP"],
      message("mfaTypeRequired"),
    ),
  });
}

/**
 * A response to an MFA setup challenge (spec §5): EMAIL or TOTP to choose, a digits-only code,
 * or an address containing @.
 */
export function mfaSetupResponseSchema() {
  return z.union(
    [z.enum(["EMAIL", "TOTP"]), z.string().regex(/^\d+$/), z.string().regex(/^[^@\s]+@[^@\s]+$/)],
    message("mfaSetupResponseInvalid"),
  );
}

export function verifyUserSchema() {
  return z.object({
    unverifiedAttr: z.enum(["email", "phone_number"], message("contactRequired")),
  });
}

export function confirmVerifyUserSchema() {
  return z.object({ confirmation_code: confirmationCodeField() });
}

/** The account overview's preferred MFA: one of the enabled methods, or none (MFA off). */
export function mfaPreferenceSchema() {
  return z.object({
    mfa_type: z.enum(["TOTP", "SMS", "EMAIL", "NONE"], message("mfaTypeRequired")),
  });
}

/** The sign-in form's other buttons (a passkey, another way in) need only the e-mail. */
export function usernameAndRedirectSchema() {
  return z.object({ username: usernameField(), redirectTo: redirectToField });
}

/** A browser's WebAuthn answer (RegistrationResponseJSON, AuthenticationResponseJSON) as sent. */
export const PASSKEY_CREDENTIAL_MAX_LENGTH = 16_384;

function passkeyCredentialField() {
  return z
    .string({ error: message("passkeyCredential") })
    .min(2, message("passkeyCredential"))
    .max(PASSKEY_CREDENTIAL_MAX_LENGTH, message("passkeyCredential"))
    .transform((text, context) => {
      try {
        const parsed = JSON.parse(text) as unknown;
        if (
          parsed &&
          typeof parsed === "object" &&
          typeof (parsed as { id?: unknown }).id === "string" &&
          (parsed as { type?: unknown }).type === "public-key" &&
          typeof (parsed as { response?: unknown }).response === "object"
        ) {
          return { text, value: parsed as Record<string, unknown> & { id: string } };
        }
      } catch {
        // Not JSON: refused below like any other malformed answer.
      }
      context.addIssue({ code: "custom", message: message("passkeyCredential") });
      return z.NEVER;
    });
}

export function passkeyCredentialSchema() {
  return z.object({ credential: passkeyCredentialField() });
}

/** One of the account's passkeys or devices, by the identifier Cognito gave it. */
export function identifierSchema(field: "credential_id" | "device_key") {
  return z.object({
    [field]: z
      .string({ error: message("unknownItem") })
      .min(1, message("unknownItem"))
      .max(1024, message("unknownItem"))
      .regex(/^[\w\-=+/.:]+$/, message("unknownItem")),
  });
}

/** The first factors the selection offers on the server (a passkey needs the browser). */
export const SERVER_FIRST_FACTORS = ["password", "email", "sms"] as const;

export function firstFactorSchema(offered: readonly (typeof SERVER_FIRST_FACTORS)[number][]) {
  return z
    .object({
      factor: z.enum(offered.length ? offered : SERVER_FIRST_FACTORS, {
        error: message("firstFactorRequired"),
      }),
      password: z.string().max(256, message("passwordFormat")).optional(),
    })
    .superRefine((value, context) => {
      if (value.factor === "password" && !value.password) {
        context.addIssue({
          code: "custom",
          path: ["password"],
          message: message("passwordRequired"),
        });
      }
    });
}
