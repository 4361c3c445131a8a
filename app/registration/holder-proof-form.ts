import * as z from "zod";
import "~/lib/zod-without-eval";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import {
  checkIdentificationNumber,
  normalizeIdentificationNumber,
  ONLINE_IDENTIFICATION_TYPES,
} from "./identification-evidence";
import { idImageField } from "./registration-form";

/**
 * The form where an order's holder shows their identification after paying (decision 0139), the
 * same on the server and in the browser. A persona física chooses the identification (INE or
 * passport) and types its number; a foreigner's passport number is the one given at checkout.
 * Both upload its photo and a selfie. Messages are keys of the "registration" namespace.
 */

const message = (key: string) => ({ error: `registration:errors.${key}` });

const NUMBER_FAULT_KEYS = {
  required: "documentNumberRequired",
  "cic-format": "cicFormat",
  "passport-format": "mexicanPassportFormat",
  "in-store": "curpBiometricaInStore",
} as const;

const evidence = {
  id_photo: idImageField("idPhotoRequired"),
  selfie: idImageField("selfieRequired"),
  idempotency_key: z
    .string()
    .optional()
    .refine((value) => value !== undefined && FORM_KEY_PATTERN.test(value), message("staleForm")),
};

/** A persona física: the identification chosen and its number, checked by its type. */
const fisicaProofSchema = z
  .object({
    identification_type: z.enum(
      ONLINE_IDENTIFICATION_TYPES,
      message("onlineIdentificationRequired"),
    ),
    document_number: z
      .string()
      .optional()
      .transform((value) => normalizeIdentificationNumber(value ?? "")),
    ...evidence,
  })
  .check(
    z.superRefine(
      (value, context) => {
        const type = ONLINE_IDENTIFICATION_TYPES.find(
          (known) => known === value.identification_type,
        );
        if (!type) return;
        const check = checkIdentificationNumber(type, value.document_number ?? "");
        if (!check.ok) {
          context.addIssue({
            code: "custom",
            path: ["document_number"],
            message: `registration:errors.${NUMBER_FAULT_KEYS[check.fault]}`,
          });
        }
      },
      // Also while a photo is missing: every fault shows at once.
      { when: () => true },
    ),
  );

/** A persona extranjera: the passport given at checkout; only its photo and the selfie. */
const extranjeraProofSchema = z.object(evidence);

export function holderProofFormSchema(kind: "fisica" | "extranjera") {
  return kind === "fisica" ? fisicaProofSchema : extranjeraProofSchema;
}

/** The form's fields, as the page's form library knows them (a foreigner's form has the last three). */
export interface HolderProofFields {
  identification_type?: string;
  document_number?: string;
  id_photo?: File;
  selfie?: File;
  idempotency_key?: string;
}
