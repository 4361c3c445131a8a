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
import { normalizePhoneNumber, PHONE_RULES } from "~/auth/countries";
import { getFixedT } from "~/i18n/i18n.server";
import { hasControlCharacters } from "~/lib/control-characters";
import { translateFormMessage } from "~/lib/form-messages";
import { setSpanishValidationMessages } from "~/lib/validation-messages";
import { createCardSchema, TEST_CARDS } from "~/payments/sandbox/card-rules";
import { curpCheckDigit } from "~/registration/curp";
import {
  holderSchema,
  personaExtranjeraSchema,
  personaFisicaSchema,
  personaMoralSchema,
} from "~/registration/holder";
import { portabilitySchema, statusLookupSchema } from "~/portability/portability-schema";
import { topupSchema } from "~/topup/topup-schema";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { removeCardSchema } from "~/payments/saved-card-schema";
import { AUTO_TOPUP_FIELDS, autoTopupSchema } from "~/auto-topup/auto-topup-schema";
import { fiscalDataSchema } from "~/invoicing/fiscal-data";
import { invoiceLookupSchema } from "~/invoicing/invoice-lookup";
import { simActivationSchema } from "~/line/sim-activation-schema";
import { lineCodeWithNumberSchema, lineNumberSchema } from "~/line/line-forms";
import { pointsSearchSchema } from "~/points-of-service/points-search";
import { assistedValidationSchema } from "~/registration/assisted-validation-form";
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
  "points of service search": { schema: pointsSearchSchema, fields: ["cp", "estado", "servicio"] },
  "assisted validation": {
    schema: assistedValidationSchema,
    fields: ["contacto", "numero", "franja", "idempotency_key"],
  },
  "top-up": {
    schema: topupSchema({ savedLines: ["5512345678"], askEmail: true }),
    fields: [
      "email",
      "saved_line",
      "phone_number",
      "phone_number_confirm",
      "amount",
      "payment_method",
      "save_card",
      "idempotency_key",
    ],
  },
  "payment choice": { schema: paymentChoiceSchema, fields: ["payment_method", "save_card"] },
  "saved card removal": { schema: removeCardSchema, fields: ["intent", "card_id"] },
  "automatic top-up": { schema: autoTopupSchema, fields: [...AUTO_TOPUP_FIELDS] },
  "invoice's fiscal data": {
    schema: fiscalDataSchema({ askCardKind: true, savedRfcKind: "moral" }),
    fields: [
      "rfc",
      "rfc_guardado",
      "nombre",
      "regimen",
      "codigo_postal",
      "uso",
      "correo",
      "tarjeta",
    ],
  },
  "invoice lookup": { schema: invoiceLookupSchema, fields: ["folio", "correo"] },
  "SIM activation": { schema: simActivationSchema, fields: ["iccid"] },
  "line number (a code by SMS)": {
    schema: lineNumberSchema,
    fields: ["phone_number", "idempotency_key"],
  },
  "line code": {
    schema: lineCodeWithNumberSchema,
    fields: ["code", "phone_number", "idempotency_key"],
  },
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
  "line holder (persona física)": {
    schema: personaFisicaSchema,
    fields: Object.keys(personaFisicaSchema.shape),
  },
  "line holder (persona extranjera)": {
    schema: personaExtranjeraSchema,
    fields: Object.keys(personaExtranjeraSchema.shape),
  },
  "line holder (persona moral)": {
    schema: personaMoralSchema,
    fields: Object.keys(personaMoralSchema.shape),
  },
  "line holder (any kind)": {
    schema: holderSchema,
    fields: [
      ...new Set([
        ...Object.keys(personaFisicaSchema.shape),
        ...Object.keys(personaExtranjeraSchema.shape),
        ...Object.keys(personaMoralSchema.shape),
      ]),
    ],
  },
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

// Issue 30: control and bidi characters (decision 0080). A name with ESC[31m or U+202E would be
// written raw to the operator's terminal; no form keeps one, except in a password.

/** The characters app/lib/control-characters.ts refuses, a few of each kind. */
const controlCharacter = fc
  .oneof(
    fc.integer({ min: 0x00, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.constantFrom(0x061c, 0x200e, 0x200f, 0x2028, 0x2029),
    fc.integer({ min: 0x202a, max: 0x202e }),
    fc.integer({ min: 0x2066, max: 0x2069 }),
  )
  .map((code) => String.fromCharCode(code));

const PASSWORD = "Secreta#2026";
const CURP = "GOMA850312MDFRRN0";

/** A submission each form accepts as it is. */
const VALID: Record<keyof typeof SCHEMAS, Record<string, string>> = {
  checkout: {
    full_name: "Ana López Hernández",
    email: "ana@example.com",
    phone_number: "55 1234 5678",
    "holder.holder_kind": "fisica",
    "holder.full_name": "Beatriz Gómez Martínez",
    "holder.curp": CURP + curpCheckDigit(CURP),
    "holder.identification_type": "ine",
    sim_type: "physical",
    street: "Av. Insurgentes Sur",
    exterior_number: "1234",
    interior_number: "5B",
    neighborhood: "Del Valle",
    postal_code: "03100",
    municipality: "Benito Juárez",
    state: "CMX",
    payment_method: "card",
    accept_terms: "on",
    idempotency_key: "abcdefghijklmnop.abcdefghijklmnopqrstuv",
  },
  portability: {
    phone_number: "55 1234 5678",
    nip: "4821",
    full_name: "Beatriz Gómez Martínez",
    email: "beatriz@example.mx",
    curp: CURP + curpCheckDigit(CURP),
    current_carrier: "telcel",
    accept_terms: "on",
    idempotency_key: "abcdefghijklmnop.abcdefghijklmnopqrstuv",
  },
  "portability status": { folio: "POR-2026-000001", numero: "5512345678" },
  "points of service search": { cp: "06700", estado: "CMX", servicio: "registro-de-linea" },
  "assisted validation": {
    contacto: "ana@example.com",
    numero: "55 1234 5678",
    franja: "tarde",
    idempotency_key: "AbCdEfGhIjKlMnOp.AbCdEfGhIjKlMnOpQrStUv",
  },
  "top-up": {
    email: "carlos@example.com",
    saved_line: "otro",
    phone_number: "55 8765 4321",
    phone_number_confirm: "5587654321",
    amount: "100",
    payment_method: "card",
    idempotency_key: "abcdefghijklmnop.abcdefghijklmnopqrstuv",
  },
  "payment choice": { payment_method: "guardada:tj_abcdefghijklmnop" },
  "saved card removal": { intent: "quitar", card_id: "tj_abcdefghijklmnop" },
  "automatic top-up": {
    intent: "activar",
    amount: "150",
    cuando: "datos-1024",
    tope: "2",
    tarjeta: "tj_abcdefghijklmnop",
  },
  // SAT's published test issuer: a persona moral whose RFC passes every check.
  "invoice's fiscal data": {
    rfc: "EKU9003173C9",
    nombre: "ESCUELA KEMPER URGATE",
    regimen: "601",
    codigo_postal: "42501",
    uso: "G03",
    correo: "facturas@example.com",
    tarjeta: "credito",
  },
  "invoice lookup": { folio: "PED-2026-000001", correo: "ana@example.com" },
  "SIM activation": { iccid: "8952 0100 0000 0000 0075" },
  "line number (a code by SMS)": {
    phone_number: "55 1234 5678",
    idempotency_key: "abcdefghijklmnop.abcdefghijklmnopqrstuv",
  },
  "line code": {
    code: "123 456",
    phone_number: "5512345678",
    idempotency_key: "abcdefghijklmnop.abcdefghijklmnopqrstuv",
  },
  "sandbox card": {
    card_number: TEST_CARDS.approved,
    card_expiry: "12/99",
    card_cvc: "123",
    cardholder_name: "Ana Lopez",
  },
  "sign-in": { username: "ana@example.com", password: PASSWORD, redirectTo: "/my-account" },
  "sign-up": {
    username: "ana@example.com",
    password: PASSWORD,
    confirm_password: PASSWORD,
    country_code: "MX",
    phone_number: "55 1234 5678",
  },
  "confirm sign-up": { username: "ana@example.com", confirmation_code: "123456" },
  "username only": { username: "ana@example.com" },
  "confirm reset password": {
    username: "ana@example.com",
    confirmation_code: "123456",
    password: PASSWORD,
    confirm_password: PASSWORD,
  },
  "confirm sign-in": { confirmation_code: "123456" },
  "force new password": {
    password: PASSWORD,
    confirm_password: PASSWORD,
    ...Object.fromEntries(REQUIRED_ATTRIBUTE_FIELDS.map((name) => [name, `Valor de ${name}`])),
    birthdate: "1990-05-17",
    phone_number: "+525512345678",
  },
  "setup TOTP": { confirmation_code: "123456" },
  "setup email": { email: "ana@example.com" },
  "select MFA type": { mfa_type: "TOTP" },
  "verify user": { unverifiedAttr: "email" },
  "confirm verify user": { confirmation_code: "123456" },
  "MFA preference": { mfa_type: "NONE" },
  "line holder (persona física)": {
    holder_kind: "fisica",
    full_name: "Beatriz Gómez Martínez",
    curp: CURP + curpCheckDigit(CURP),
    identification_type: "ine",
  },
  "line holder (persona extranjera)": {
    holder_kind: "extranjera",
    full_name: "John Smith",
    passport_number: "A12345678",
    nationality: "US",
  },
  "line holder (persona moral)": {
    holder_kind: "moral",
    business_name: "Escuela Kemper Urgate, S.A. de C.V.",
    rfc: "EKU9003173C9",
    representative_name: "Beatriz Gómez Martínez",
    representative_curp: CURP + curpCheckDigit(CURP),
    representative_identification_type: "pasaporte",
  },
  "line holder (any kind)": {
    holder_kind: "fisica",
    full_name: "Beatriz Gómez Martínez",
    curp: CURP + curpCheckDigit(CURP),
    identification_type: "curp_biometrica",
  },
};

/**
 * Never judged for control characters: passwords (Cognito takes any character, and they are
 * never shown), and the hidden redirect, which sameSitePath (app/lib/same-site-path.ts) refuses
 * for them and every other reason.
 */
const NOT_JUDGED = new Set(["password", "confirm_password", "redirectTo"]);

/**
 * What a form's action keeps of the accepted values, where that is not the values themselves:
 * sign-up gives Cognito the E.164 number libphonenumber reads in the phone (decision 0080).
 */
const KEPT: Partial<Record<keyof typeof SCHEMAS, (value: Record<string, string>) => object>> = {
  "sign-up": (value) => ({
    ...value,
    phone_number: normalizePhoneNumber(value.country_code, value.phone_number),
  }),
};

const submit = (schema: z.ZodType, values: Record<string, string>) => {
  const formData = new FormData();
  for (const [field, value] of Object.entries(values)) formData.append(field, value);
  return parseWithZod(formData, { schema });
};

/** The free text of each form: names, addresses, answers. Refused with the form's own message. */
const FREE_TEXT: Array<{
  name: string;
  schema: z.ZodType;
  valid: Record<string, string>;
  fields: string[];
  message: string;
}> = [
  {
    name: "checkout",
    ...SCHEMAS.checkout,
    valid: VALID.checkout,
    fields: [
      "full_name",
      "street",
      "exterior_number",
      "interior_number",
      "neighborhood",
      "municipality",
    ],
    message: "commerce:checkout.errors.controlCharacters",
  },
  {
    name: "portability",
    ...SCHEMAS.portability,
    valid: VALID.portability,
    fields: ["full_name"],
    message: "portability:errors.controlCharacters",
  },
  {
    name: "line holder (persona física)",
    ...SCHEMAS["line holder (persona física)"],
    valid: VALID["line holder (persona física)"],
    fields: ["full_name"],
    message: "registration:errors.controlCharacters",
  },
  {
    name: "line holder (persona extranjera)",
    ...SCHEMAS["line holder (persona extranjera)"],
    valid: VALID["line holder (persona extranjera)"],
    fields: ["full_name"],
    message: "registration:errors.controlCharacters",
  },
  {
    name: "line holder (persona moral)",
    ...SCHEMAS["line holder (persona moral)"],
    valid: VALID["line holder (persona moral)"],
    fields: ["business_name", "representative_name"],
    message: "registration:errors.controlCharacters",
  },
  {
    name: "sandbox card",
    ...SCHEMAS["sandbox card"],
    valid: VALID["sandbox card"],
    fields: ["cardholder_name"],
    message: "commerce:sandbox.errors.controlCharacters",
  },
  {
    name: "force new password (the attributes Cognito asks for)",
    schema: forceNewPasswordSchema(DEFAULT_PASSWORD_POLICY, [
      ...REQUIRED_ATTRIBUTE_FIELDS.filter((name) => !["birthdate", "phone_number"].includes(name)),
      "custom:empresa",
    ]),
    valid: {
      ...VALID["force new password"],
      "custom:empresa": "Telefonía del Valle",
    },
    fields: [
      ...REQUIRED_ATTRIBUTE_FIELDS.filter((name) => !["birthdate", "phone_number"].includes(name)),
      "custom:empresa",
    ],
    message: "auth:validation.controlCharacters",
  },
  {
    name: "confirm sign-in (an answer to the pool's own challenge)",
    schema: confirmSignInSchema("custom"),
    valid: { confirmation_code: "azul marino" },
    fields: ["confirmation_code"],
    message: "auth:validation.controlCharacters",
  },
];

/** `value` with `character` put inside it: trimming cannot take it away. */
const inside = (value: string, character: string, at: number) => {
  const position = 1 + (at % (value.length - 1));
  return value.slice(0, position) + character + value.slice(position);
};

describe("control and bidi characters", () => {
  for (const [name, { schema }] of Object.entries(SCHEMAS)) {
    it(`${name}: the valid submission of these tests is accepted`, () => {
      expect(submit(schema, VALID[name]).status).toBe("success");
    });
  }

  for (const { name, schema, valid, fields, message } of FREE_TEXT) {
    it(`${name}: one in any free-text field is refused, next to it, with the form's message`, () => {
      expect(submit(schema, valid).status).toBe("success");
      fc.assert(
        fc.property(
          fc.constantFrom(...fields),
          controlCharacter,
          fc.nat(),
          (field, character, at) => {
            const submission = submit(schema, {
              ...valid,
              [field]: inside(valid[field], character, at),
            });
            if (submission.status === "success") throw new Error(`${field} was accepted`);
            expect(submission.error?.[field]).toContain(message);
            expect(isLocaleText(shown(message))).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  for (const [name, { schema }] of Object.entries(SCHEMAS)) {
    it(`${name}: none reaches what the form accepts, whichever field it is put in`, () => {
      const fields = Object.keys(VALID[name]).filter((field) => !NOT_JUDGED.has(field));
      fc.assert(
        fc.property(
          fc.constantFrom(...fields),
          controlCharacter,
          fc.nat(),
          (field, character, at) => {
            const valid = VALID[name][field];
            const position = at % (valid.length + 1);
            const submission = submit(schema, {
              ...VALID[name],
              [field]: valid.slice(0, position) + character + valid.slice(position),
            });
            if (submission.status !== "success") return;
            const value = submission.value as Record<string, string>;
            const kept = Object.entries(KEPT[name]?.(value) ?? value).filter(
              ([key]) => !NOT_JUDGED.has(key),
            );
            expect(hasControlCharacters(JSON.stringify(kept)), JSON.stringify(kept)).toBe(false);
          },
        ),
        { numRuns: 200 },
      );
    });
  }
});
