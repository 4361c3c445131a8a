import * as z from "zod";
import "~/lib/zod-without-eval";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import { HOLDER_KINDS, holderSchema, IDENTIFICATION_TYPES, type HolderKind } from "./holder";
import {
  checkIdentificationNumber,
  ID_IMAGE_MAX_BYTES,
  ID_IMAGE_TYPES,
  normalizeIdentificationNumber,
  type IdentificationNumberFault,
} from "./identification-evidence";

/**
 * The holder's form of /registro-de-linea, the same on the server and in the browser: the holder
 * of the kind chosen (holder.ts, one message per fault next to its field), an e-mail for the
 * folio if the customer wants one, and the form's key. Messages are keys of the "registration"
 * namespace.
 */

/** Which button of the page was pressed (besides the number and code forms of "line"). */
export const REGISTRATION_INTENTS = {
  register: "registrar",
  /** Another number: forget the one proved or waiting for its code. */
  forget: "otro-numero",
} as const;

/** `?tipo=` of the page: the holder's kind whose fields the form shows (persona física first). */
export const HOLDER_KIND_PARAM = "tipo";

export function holderKindOf(value: string | null): HolderKind {
  return HOLDER_KINDS.find((kind) => kind === value) ?? "fisica";
}

const message = (key: string) => ({ error: `registration:errors.${key}` });

/** A photo the form uploads: an image, at most 5 MB (its first bytes are checked on the server). */
export const idImageField = (requiredKey: string) =>
  z
    .file(message(requiredKey))
    .min(1, message(requiredKey))
    .max(ID_IMAGE_MAX_BYTES, message("imageTooLarge"))
    .mime(ID_IMAGE_TYPES, message("imageType"));

const NUMBER_FAULT_KEYS: Record<IdentificationNumberFault, string> = {
  required: "documentNumberRequired",
  "cic-format": "cicFormat",
  "passport-format": "mexicanPassportFormat",
  "in-store": "curpBiometricaInStore",
};

/**
 * The identification's own number, checked by the type chosen: a persona física's, a company's
 * legal representative's. A foreigner's is the passport number the holder's fields already ask.
 * Checked as soon as a type is chosen, whatever else is still wrong, so that every fault shows at
 * once.
 */
function identificationNumberFault(value: unknown): {
  fault: IdentificationNumberFault;
  path: string;
} | null {
  if (typeof value !== "object" || value === null) return null;
  const form = value as Record<string, unknown>;
  const typeField =
    form.holder_kind === "fisica"
      ? "identification_type"
      : form.holder_kind === "moral"
        ? "representative_identification_type"
        : null;
  if (!typeField) return null;
  const type = IDENTIFICATION_TYPES.find((known) => known === form[typeField]);
  if (!type) return null;
  const typed = typeof form.document_number === "string" ? form.document_number : "";
  const check = checkIdentificationNumber(type, normalizeIdentificationNumber(typed));
  if (check.ok) return null;
  return { fault: check.fault, path: check.fault === "in-store" ? typeField : "document_number" };
}

export const registrationFormSchema = z
  .intersection(
    holderSchema,
    z.object({
      /** The INE's CIC or the Mexican passport's number (not kept: only sent to the validation). */
      document_number: z
        .string()
        .optional()
        .transform((value) => normalizeIdentificationNumber(value ?? "")),
      id_photo: idImageField("idPhotoRequired"),
      selfie: idImageField("selfieRequired"),
      email: z
        .string()
        .trim()
        .max(254, message("tooLong"))
        .pipe(z.email(message("emailInvalid")))
        .optional(),
      idempotency_key: z
        .string()
        .optional()
        .refine(
          (value) => value !== undefined && FORM_KEY_PATTERN.test(value),
          message("staleForm"),
        ),
    }),
  )
  .check(
    z.superRefine(
      (value, context) => {
        const fault = identificationNumberFault(value);
        if (fault) {
          context.addIssue({
            code: "custom",
            path: [fault.path],
            message: `registration:errors.${NUMBER_FAULT_KEYS[fault.fault]}`,
          });
        }
      },
      // Also while other fields are wrong: every fault shows at once.
      { when: () => true },
    ),
  );

export type RegistrationForm = z.infer<typeof registrationFormSchema>;
