import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  confirmResetPasswordSchema,
  confirmSignInSchema,
  confirmSignUpSchema,
  confirmVerifyUserSchema,
  DEFAULT_PASSWORD_POLICY,
  forceNewPasswordSchema,
  mfaPreferenceSchema,
  REQUIRED_ATTRIBUTE_FIELDS,
  selectMfaTypeSchema,
  setupEmailSchema,
  setupTotpSchema,
  signInSchema,
  signUpSchema,
  usernameOnlySchema,
  verifyUserSchema,
} from "~/auth/schemas";
import { CHECKOUT_FIELDS, checkoutSchema } from "~/checkout/checkout-schema";
import { PHONE_RULES } from "~/auth/countries";
import { getFixedT } from "~/i18n/i18n.server";
import { translateFormMessage } from "~/lib/form-messages";
import { setSpanishValidationMessages } from "~/lib/validation-messages";
import { createCardSchema } from "~/payments/sandbox/card-rules";
import { portabilitySchema, statusLookupSchema } from "~/portability/portability-schema";
import { topupSchema } from "~/topup/topup-schema";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { isLocaleText } from "../support/locale-texts";

// Issue 8: every action's schema, fed what no browser sends (wrong types, repeated and unknown
// fields, control characters, unicode, megabyte values), never throws, and every message it
// gives a customer is one of the Spanish locale texts.

const common = getFixedT("common");
const shown = (message: string) => translateFormMessage(common, message);

const SCHEMAS: Record<string, { schema: z.ZodType; fields: string[] }> = {
  checkout: { schema: checkoutSchema(), fields: CHECKOUT_FIELDS },
  portability: { schema: portabilitySchema, fields: Object.keys(portabilitySchema.shape) },
  "portability status": { schema: statusLookupSchema, fields: ["folio", "numero"] },
  "top-up": {
    schema: topupSchema({ savedLines: ["5512345678"], askEmail: true }),
    fields: [
      "email",
      "saved_line",
      "phone_number",
      "phone_number_confirm",
      "amount",
      "payment_method",
      "idempotency_key",
    ],
  },
  "payment choice": { schema: paymentChoiceSchema, fields: ["payment_method"] },
  "sandbox card": {
    schema: createCardSchema(),
    fields: ["card_number", "card_expiry", "card_cvc", "cardholder_name"],
  },
  "sign-in": { schema: signInSchema(), fields: ["username", "password", "redirectTo"] },
  "sign-up": {
    schema: signUpSchema(DEFAULT_PASSWORD_POLICY, PHONE_RULES),
    fields: ["username", "password", "confirm_password", "country_code", "phone_number"],
  },
  "confirm sign-up": {
    schema: confirmSignUpSchema(),
    fields: ["username", "confirmation_code"],
  },
  "username only": { schema: usernameOnlySchema(), fields: ["username"] },
  "confirm reset password": {
    schema: confirmResetPasswordSchema(DEFAULT_PASSWORD_POLICY),
    fields: ["username", "confirmation_code", "password", "confirm_password"],
  },
  "confirm sign-in": { schema: confirmSignInSchema(), fields: ["confirmation_code"] },
  "force new password": {
    schema: forceNewPasswordSchema(DEFAULT_PASSWORD_POLICY, [...REQUIRED_ATTRIBUTE_FIELDS]),
    fields: ["password", "confirm_password", ...REQUIRED_ATTRIBUTE_FIELDS],
  },
  "setup TOTP": { schema: setupTotpSchema(), fields: ["confirmation_code"] },
  "setup email": { schema: setupEmailSchema(), fields: ["email"] },
  "select MFA type": { schema: selectMfaTypeSchema(), fields: ["mfa_type"] },
  "verify user": { schema: verifyUserSchema(), fields: ["unverifiedAttr"] },
  "confirm verify user": { schema: confirmVerifyUserSchema(), fields: ["confirmation_code"] },
  "MFA preference": { schema: mfaPreferenceSchema(), fields: ["mfa_type"] },
};

const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: fc.constantFrom("\u0000", "\u0007", "\u001b", "\u007f", "\u202e", "\ud800") }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("", " ", "on", "NONE", "TOTP", "+52", "5512345678", "100", "otro", "1e309"),
  fc.nat({ max: 1_100_000 }).map((size) => "9".repeat(size)),
);

const entries = (fields: string[]) =>
  fc.array(
    fc.tuple(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...fields) }, fc.string({ maxLength: 12 })),
      fc.oneof({ weight: 9, arbitrary: hostileText }, fc.constant(new Blob(["x"]))),
    ),
    { maxLength: 14 },
  );

beforeAll(() => setSpanishValidationMessages(common));

describe("every form's schema under hostile input", () => {
  for (const [name, { schema, fields }] of Object.entries(SCHEMAS)) {
    it(`${name}: never throws, and says what is wrong in Spanish`, () => {
      fc.assert(
        fc.property(entries(fields), (pairs) => {
          const formData = new FormData();
          for (const [field, value] of pairs) formData.append(field, value);
          const submission = parseWithZod(formData, { schema });
          if (submission.status === "success") return;
          const messages = Object.values(submission.error ?? {}).flatMap((list) => list ?? []);
          expect(messages.length).toBeGreaterThan(0);
          for (const message of messages) {
            const text = shown(message);
            expect(isLocaleText(text), `${JSON.stringify(message)} → ${text}`).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
