import * as z from "zod";
import "~/lib/zod-without-eval";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import { normalisePhoneNumber } from "~/topup/phone";
import { LINE_CODE_PATTERN } from "./line-code";

/**
 * The forms that prove a number with a code sent to it by SMS: the number, then the code. The
 * same two at /my-account/lineas (add a line) and /saldo (its balance without an account).
 * Messages are keys of the "line" namespace.
 */

/** Which of a page's forms was sent (its submit button's value). */
export const LINE_FORM_INTENTS = {
  sendCode: "enviar-codigo",
  /** The code's form: another code to the same number. */
  resendCode: "reenviar-codigo",
  checkCode: "confirmar-codigo",
  /** /saldo: forget the number shown or waiting for its code. */
  forget: "otro-numero",
} as const;

const message = (key: string) => `line:errors.${key}`;

const formKey = z
  .string()
  .optional()
  .refine((value) => value !== undefined && FORM_KEY_PATTERN.test(value), message("expired"));

export const lineNumberSchema = z.object({
  phone_number: z
    .string(message("phoneRequired"))
    .transform(normalisePhoneNumber)
    .pipe(
      z
        .string()
        .min(1, message("phoneRequired"))
        .regex(/^\d{10}$/, message("phoneDigits")),
    ),
  idempotency_key: formKey,
});

export const lineCodeSchema = z.object({
  code: z
    .string(message("codeRequired"))
    .transform((value) => value.replace(/\s/g, ""))
    .pipe(
      z.string().min(1, message("codeRequired")).regex(LINE_CODE_PATTERN, message("codeDigits")),
    ),
  idempotency_key: formKey,
});

/** The number whose code is typed travels with it (add-line); /saldo keeps it in its cookie. */
export const lineCodeWithNumberSchema = lineCodeSchema.extend({
  phone_number: z.string().regex(/^\d{10}$/, message("codeExpired")),
});
