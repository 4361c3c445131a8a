import * as z from "zod";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import "~/lib/zod-without-eval";

/**
 * The request for an assisted validation (issue 48, decision 0140): the online alternative to a
 * store once a number's online identity validations are used up. The customer leaves a contact
 * (a phone or an e-mail), the number to register and when to be contacted; the operator's staff
 * call back (`npm run ops -- validaciones-asistidas`). Messages are keys of the "registration"
 * namespace, so the same schema checks the form on the server and in the browser.
 */
const message = (key: string) => ({ error: `registration:assisted.errors.${key}` });

/** When the staff may call, Mexico City time, Monday to Saturday. */
export const TIME_WINDOWS = ["manana", "tarde", "noche"] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/** The folio series of the requests: "VAL-2026-000001". */
export const ASSISTED_VALIDATION_SERIES = "VAL";

/** New requests allowed per client address and per number (a form sent again is not counted). */
export const ASSISTED_VALIDATION_LIMITS = {
  perClient: { limit: 5, windowMs: 24 * 60 * 60 * 1000 },
  perNumber: { limit: 3, windowMs: 24 * 60 * 60 * 1000 },
} as const;

const MOBILE_NUMBER = /^[2-9]\d{9}$/;
const EMAIL = z.email();

export type Contact = { kind: "phone" | "email"; value: string };

/**
 * A phone ("55 1234 5678", "(55) 1234-5678", "+52 55 1234 5678": kept as its 10 digits) or an
 * e-mail address (kept lower-cased); null when it is neither.
 */
export function readContact(raw: string): Contact | null {
  const text = raw.trim();
  if (text.includes("@")) {
    const email = text.toLowerCase();
    return EMAIL.safeParse(email).success ? { kind: "email", value: email } : null;
  }
  if (!/^[\d\s()+.-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "").replace(/^52(?=\d{10}$)/, "");
  return MOBILE_NUMBER.test(digits) ? { kind: "phone", value: digits } : null;
}

export const assistedValidationSchema = z.object({
  contacto: z
    .string(message("contactRequired"))
    .trim()
    .min(1, { ...message("contactRequired"), abort: true })
    .max(254, { ...message("tooLong"), abort: true })
    .transform((value, context) => {
      const contact = readContact(value);
      if (!contact) {
        context.addIssue({ code: "custom", message: message("contactInvalid").error });
        return z.NEVER;
      }
      return contact;
    }),
  numero: z
    .string(message("numberRequired"))
    .transform((value) => value.replace(/[\s()-]/g, ""))
    .pipe(
      z
        .string()
        .min(1, { ...message("numberRequired"), abort: true })
        .regex(MOBILE_NUMBER, message("numberFormat")),
    ),
  franja: z.enum(TIME_WINDOWS, message("windowRequired")),
  idempotency_key: z.string().regex(FORM_KEY_PATTERN, message("staleForm")),
});

export type AssistedValidationForm = z.infer<typeof assistedValidationSchema>;
