import * as z from "zod";
import { withoutControlCharacters } from "~/lib/control-characters";
import "~/lib/zod-without-eval";
import type { CardBrand, DeclineReason } from "../provider";
import { passesLuhn } from "~/lib/luhn";

/**
 * The sandbox's card form and its documented test cards. Messages are keys of the "commerce"
 * namespace. The card number never leaves this validation: only brand and last four do.
 */
export const TEST_CARDS = {
  approved: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
} as const;

export function digitsOnly(value: string): string {
  return value.replace(/[\s-]/g, "");
}

export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d{2}|27[01]\d|2720)/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  return "other";
}

/** The sandbox's verdict for a valid card: only the test cards are known to it. */
export function sandboxOutcome(
  digits: string,
): { status: "approved" } | { status: "declined"; reason: DeclineReason } {
  if (digits === TEST_CARDS.approved) return { status: "approved" };
  if (digits === TEST_CARDS.declined) return { status: "declined", reason: "card_declined" };
  if (digits === TEST_CARDS.insufficientFunds)
    return { status: "declined", reason: "insufficient_funds" };
  return { status: "declined", reason: "test_card_required" };
}

const error = (key: string) => ({ error: `commerce:sandbox.errors.${key}` });

/** MM/AA or MMAA (spaces around the slash forgiven; no other whitespace, decision 0080). */
const EXPIRY = /^(0[1-9]|1[0-2]) *\/? *(\d{2})$/;

/** True when MM/AA (or MMAA) is this month or later (a card is valid through the end of its month). */
export function expiryIsCurrent(month: number, twoDigitYear: number, now: Date): boolean {
  const year = 2000 + twoDigitYear;
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year > currentYear || (year === currentYear && month >= currentMonth);
}

/** The card form's schema; `now` decides which expiry dates have passed. */
export function createCardSchema(now: () => Date = () => new Date()) {
  return z
    .object({
      card_number: z
        .string(error("cardNumberRequired"))
        .transform(digitsOnly)
        .pipe(
          z
            .string()
            .regex(/^\d{13,19}$/, error("cardNumberDigits"))
            .refine(passesLuhn, error("cardNumberInvalid")),
        ),
      // MMAA or MM/AA: a phone's numeric keypad has no "/". One message at a time: the date is
      // only judged once it reads as one. Refinements, not a transform: an issue there would stop
      // the card's other checks (the CVC's, below) from running.
      card_expiry: z
        .string(error("expiryRequired"))
        .trim()
        .refine((value) => EXPIRY.test(value), error("expiryFormat"))
        .refine((value) => {
          const match = EXPIRY.exec(value);
          return !match || expiryIsCurrent(Number(match[1]), Number(match[2]), now());
        }, error("expiryPast")),
      card_cvc: z.string(error("cvcRequired")).trim(),
      cardholder_name: z
        .string(error("nameRequired"))
        .trim()
        .min(2, error("nameRequired"))
        .max(80, error("nameTooLong"))
        .check(withoutControlCharacters(error("controlCharacters"))),
    })
    .superRefine((card, context) => {
      // American Express prints four digits on the front; every other brand three on the back.
      const length = cardBrand(card.card_number) === "amex" ? 4 : 3;
      if (!new RegExp(`^\\d{${length}}$`).test(card.card_cvc)) {
        context.addIssue({
          code: "custom",
          path: ["card_cvc"],
          message: `commerce:sandbox.errors.${length === 4 ? "cvcAmex" : "cvcDigits"}`,
        });
      }
    });
}

export type CardInput = z.infer<ReturnType<typeof createCardSchema>>;
