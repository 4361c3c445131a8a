import * as z from "zod";
import { normaliseFolio } from "~/db/folio";
import { withoutControlCharacters } from "~/lib/control-characters";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import "~/lib/zod-without-eval";
import { CARRIER_IDS } from "./carriers";
import { isValidCurp, normalizeCurp } from "~/registration/curp";
import { isValidIccid, normalizeDigits } from "./numbers";

/**
 * The portability request form. Messages are keys of the "portability" namespace, translated
 * where they are shown, so the same schema validates on the server and in the browser.
 */
const message = (key: string) => ({ error: `portability:errors.${key}` });

export const MEXICAN_MOBILE_NUMBER = /^[2-9]\d{9}$/;

export const mexicanNumber = (requiredKey: string, formatKey: string) =>
  z
    .string(message(requiredKey))
    .transform(normalizeDigits)
    .pipe(
      z
        .string()
        .min(1, { ...message(requiredKey), abort: true })
        .regex(MEXICAN_MOBILE_NUMBER, message(formatKey)),
    );

/**
 * What identifies the number to bring: the number, the NIP the 051 sent to it, and the carrier it
 * is with. The request form asks them, and so does the checkout for each line that keeps its
 * number (decision 0106), with these very checks and messages.
 */
export const numberToPortFields = {
  phone_number: mexicanNumber("phoneRequired", "phoneFormat"),
  nip: z
    .string(message("nipRequired"))
    .trim()
    .min(1, { ...message("nipRequired"), abort: true })
    .regex(/^\d{4}$/, message("nipFormat")),
  current_carrier: z.enum(CARRIER_IDS, message("carrierRequired")),
};

export const numberToPortSchema = z.object(numberToPortFields);
export type NumberToPort = z.infer<typeof numberToPortSchema>;

export const portabilitySchema = z.object({
  phone_number: numberToPortFields.phone_number,
  nip: numberToPortFields.nip,
  full_name: z
    .string(message("fullNameRequired"))
    .trim()
    .min(3, message("fullNameShort"))
    .max(120, message("tooLong"))
    // No control or bidi character: the operator's terminal shows the name (decision 0080).
    .check(withoutControlCharacters(message("controlCharacters"))),
  email: z
    .string(message("emailRequired"))
    .trim()
    .min(1, { ...message("emailRequired"), abort: true })
    .max(254, message("tooLong"))
    .pipe(z.email(message("emailInvalid"))),
  curp: z
    .string(message("curpRequired"))
    .transform(normalizeCurp)
    .pipe(
      z
        .string()
        .min(1, { ...message("curpRequired"), abort: true })
        // One message at a time: a short CURP is "too short", not also "invalid".
        .length(18, { ...message("curpLength"), abort: true })
        .refine(isValidCurp, message("curpInvalid")),
    ),
  current_carrier: numberToPortFields.current_carrier,
  iccid: z
    .string()
    .optional()
    .transform((value) => (value ? normalizeDigits(value) : undefined))
    .pipe(z.string().refine(isValidIccid, message("iccidInvalid")).optional()),
  accept_terms: z.literal("on", message("acceptTerms")),
  idempotency_key: z.string().regex(FORM_KEY_PATTERN, message("expired")),
});

export type PortabilityInput = z.infer<typeof portabilitySchema>;

/** The status lookup: a plain GET form. */
export const statusLookupSchema = z.object({
  folio: z
    .string(message("folioRequired"))
    .transform(normaliseFolio)
    .pipe(z.string().regex(/^POR-\d{4}-\d{6}$/, message("folioFormat"))),
  numero: mexicanNumber("phoneRequired", "phoneFormat"),
});
