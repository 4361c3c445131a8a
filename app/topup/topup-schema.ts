import type { SubmissionResult } from "@conform-to/react";
import * as z from "zod";
import "~/lib/zod-without-eval";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import {
  isPaymentChoiceValue,
  SAVE_CARD_FIELD,
  toPaymentChoice,
  type PaymentChoice,
} from "~/payments/payment-choice";
import { OFFERED_AMOUNTS } from "./amounts";
import { normalisePhoneNumber } from "./phone";

/** The radio value that means "a number typed in the two fields below", not a saved line. */
export const OTHER_LINE = "otro";

const message = (key: string) => `topup:errors.${key}`;

export interface TopupInput {
  /** The ten digits of the line to top up. */
  phoneNumber: string;
  amount: number;
  idempotencyKey: string;
  /** True when the customer picked a line they had topped up before. */
  fromSavedLine: boolean;
  /** A method or a saved card (signed in), and whether to save the card typed (decision 0119). */
  payment: PaymentChoice;
  /** Where to send the receipt; null when not asked or left empty. */
  email: string | null;
  /**
   * The number the customer was warned is suspended for want of a registration and still chose
   * to top up (the form's second sending); null: no warning seen.
   */
  unregisteredAcknowledged: string | null;
}

/**
 * What the form's action answers: the form's reply, and `unregisteredWarning` (the number) when
 * the line is suspended for want of a registration: the customer is told so before paying and
 * sends the form again to top it up all the same (issue 27).
 */
export type TopupAnswer = SubmissionResult<string[]> & { unregisteredWarning?: string };

/** The hidden field that carries the number whose "sin registro" warning the customer saw. */
export const UNREGISTERED_ACK_FIELD = "unregistered_ok";

export interface TopupFormOptions {
  /** Lines the signed-in customer topped up before (none without an account). */
  savedLines: readonly string[];
  /** Without an account the form offers an optional e-mail for the receipt. */
  askEmail: boolean;
}

/**
 * The top-up form, for the customer whose previously topped-up lines are `savedLines`. Every
 * field is checked in one pass so that the customer sees all the problems at once (a refinement
 * after a failed object would hide the phone-number mistakes until the amount is fixed).
 * Messages are keys of the "topup" namespace, translated where they are shown.
 */
export function topupSchema({ savedLines, askEmail }: TopupFormOptions) {
  return z
    .object({
      saved_line: z.string().optional(),
      phone_number: z.string().optional(),
      phone_number_confirm: z.string().optional(),
      amount: z.string().optional(),
      idempotency_key: z.string().optional(),
      payment_method: z.string().optional(),
      [SAVE_CARD_FIELD]: z.string().optional(),
      email: z.string().optional(),
      [UNREGISTERED_ACK_FIELD]: z.string().optional(),
    })
    .superRefine((raw, ctx) => {
      const issue = (path: string, key: string) =>
        ctx.addIssue({ code: "custom", path: [path], message: message(key) });

      const chosen = raw.saved_line && raw.saved_line !== OTHER_LINE ? raw.saved_line : null;
      const typed = normalisePhoneNumber(raw.phone_number ?? "");
      if (chosen) {
        if (!savedLines.includes(chosen)) issue("saved_line", "savedLineUnknown");
        // Without JavaScript both the choice and the fields are on the page: a number typed
        // while a saved line is still selected is ambiguous, and guessing could pay a stranger.
        else if (typed) issue("phone_number", "chooseOtherLine");
      } else {
        const confirm = normalisePhoneNumber(raw.phone_number_confirm ?? "");
        if (!typed) issue("phone_number", "phoneRequired");
        else if (!/^\d{10}$/.test(typed)) issue("phone_number", "phoneDigits");
        if (!confirm) issue("phone_number_confirm", "confirmRequired");
        else if (typed && confirm !== typed) issue("phone_number_confirm", "confirmMismatch");
      }

      if (!raw.amount) issue("amount", "amountRequired");
      else if (!OFFERED_AMOUNTS.includes(Number(raw.amount)) || !/^\d+$/.test(raw.amount)) {
        issue("amount", "amountNotOffered");
      }

      if (!raw.idempotency_key || !FORM_KEY_PATTERN.test(raw.idempotency_key)) {
        issue("idempotency_key", "expired");
      }
      const email = raw.email?.trim();
      if (askEmail && email && (email.length > 254 || !z.email().safeParse(email).success)) {
        issue("email", "emailInvalid");
      }
      // The form offers card checked: a request without a choice pays by card.
      if (raw.payment_method !== undefined && !isPaymentChoiceValue(raw.payment_method)) {
        issue("payment_method", "paymentMethodRequired");
      }
    })
    .transform((raw): TopupInput => {
      const chosen = raw.saved_line && raw.saved_line !== OTHER_LINE ? raw.saved_line : null;
      return {
        phoneNumber: chosen ?? normalisePhoneNumber(raw.phone_number ?? ""),
        amount: Number(raw.amount),
        idempotencyKey: raw.idempotency_key ?? "",
        fromSavedLine: chosen !== null,
        payment: toPaymentChoice(raw.payment_method, raw[SAVE_CARD_FIELD] === "on"),
        email: askEmail ? raw.email?.trim() || null : null,
        unregisteredAcknowledged: raw[UNREGISTERED_ACK_FIELD] || null,
      };
    });
}

export type TopupSchema = ReturnType<typeof topupSchema>;
