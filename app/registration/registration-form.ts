import * as z from "zod";
import "~/lib/zod-without-eval";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import { HOLDER_KINDS, holderSchema, type HolderKind } from "./holder";

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

export const registrationFormSchema = z.intersection(
  holderSchema,
  z.object({
    email: z
      .string()
      .trim()
      .max(254, message("tooLong"))
      .pipe(z.email(message("emailInvalid")))
      .optional(),
    idempotency_key: z
      .string()
      .optional()
      .refine((value) => value !== undefined && FORM_KEY_PATTERN.test(value), message("staleForm")),
  }),
);

export type RegistrationForm = z.infer<typeof registrationFormSchema>;
