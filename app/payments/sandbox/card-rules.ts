import * as z from "zod";
import { withoutControlCharacters } from "~/lib/control-characters";
import "~/lib/zod-without-eval";
import type { SandboxCardBehaviour } from "~/db/schema";
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
  /**
   * Stripe's numbers for these two (decision 0119): paid at the page (where the customer
   * authenticates), its saved card then always asks for 3-D Secure, so a charge with nobody at
   * the page fails with "authentication_required"…
   */
  authenticationRequired: "4000002760003184",
  /** …and paid at the page, its saved card then declined on every later charge. */
  declinesLater: "4000000000000341",
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
  if (
    digits === TEST_CARDS.approved ||
    digits === TEST_CARDS.authenticationRequired ||
    digits === TEST_CARDS.declinesLater
  ) {
    return { status: "approved" };
  }
  if (digits === TEST_CARDS.declined) return { status: "declined", reason: "card_declined" };
  if (digits === TEST_CARDS.insufficientFunds)
    return { status: "declined", reason: "insufficient_funds" };
  return { status: "declined", reason: "test_card_required" };
}

/** What a card saved at the page does when charged later; only approved cards are saved. */
export function savedCardBehaviour(digits: string): SandboxCardBehaviour {
  if (digits === TEST_CARDS.authenticationRequired) return "authenticate";
  if (digits === TEST_CARDS.declinesLater) return "decline";
  if (digits === TEST_CARDS.insufficientFunds) return "insufficient_funds";
  return "approve";
}

/** A saved card charged: its behaviour's verdict. */
export function savedCardOutcome(
  behaviour: SandboxCardBehaviour,
): { status: "approved" } | { status: "declined"; reason: DeclineReason } {
  switch (behaviour) {
    case "approve":
      return { status: "approved" };
    case "authenticate":
      // Nobody can answer the bank through the API: the customer pays at the page instead.
      return { status: "declined", reason: "authentication_required" };
    case "insufficient_funds":
      return { status: "declined", reason: "insufficient_funds" };
    default:
      return { status: "declined", reason: "card_declined" };
  }
}

const error = (key: string) => ({ error: `commerce:sandbox.errors.${key}` });

/** MM/AA or MMAA (spaces around the slash forgiven; no other whitespace, decision 0080). */
const EXPIRY = /^(0[1-9]|1[0-2]) *\/? *(\d{2})$/;

/** The month and four-digit year of a valid MM/AA; null when it does not read as one. */
export function expiryParts(value: string): { month: number; year: number } | null {
  const match = EXPIRY.exec(value.trim());
  return match ? { month: Number(match[1]), year: 2000 + Number(match[2]) } : null;
}

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
