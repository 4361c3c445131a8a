import * as z from "zod";
import "~/lib/zod-without-eval";
import { isPaymentMethod, type PaymentMethod } from "./provider";

/**
 * How the customer chose to pay on a store's form (checkout, top-up, an order's or a receipt's
 * "pay now"): one radio group whose choices are the methods and, signed in, the account's saved
 * cards ("guardada:tj_…", decision 0119); and a box that saves the card typed on the provider's
 * page. Shared by the server and the browser: whether a saved card is the customer's own is the
 * server's to check (`payFor`).
 */
export interface PaymentChoice {
  method: PaymentMethod;
  /** Pay at once with this saved card; null: the provider's page, or a voucher or transfer. */
  savedCardId: string | null;
  /** Save the card typed on the provider's page to the account (a card payment only). */
  saveCard: boolean;
}

/** The form's field that saves the card. */
export const SAVE_CARD_FIELD = "save_card";

const SAVED_CARD_PREFIX = "guardada:";
/** The store's id of a saved card (app/payments/saved-cards.server.ts). */
const SAVED_CARD_ID = /^tj_[\w-]{16}$/;

/** The radio value of a saved card. */
export function savedCardChoiceValue(cardId: string): string {
  return `${SAVED_CARD_PREFIX}${cardId}`;
}

/** A method, or a well-formed saved card's value. */
export function isPaymentChoiceValue(value: unknown): value is string {
  if (isPaymentMethod(value)) return true;
  return (
    typeof value === "string" &&
    value.startsWith(SAVED_CARD_PREFIX) &&
    SAVED_CARD_ID.test(value.slice(SAVED_CARD_PREFIX.length))
  );
}

/** The choice a valid radio value and the box make; a form without a choice pays by card. */
export function toPaymentChoice(value: string | undefined, saveCard: boolean): PaymentChoice {
  if (value?.startsWith(SAVED_CARD_PREFIX)) {
    return { method: "card", savedCardId: value.slice(SAVED_CARD_PREFIX.length), saveCard: false };
  }
  const method = isPaymentMethod(value) ? value : "card";
  return { method, savedCardId: null, saveCard: method === "card" && saveCard };
}

/** The radio group's field: a method or a saved card; card when the form sends no choice. */
export function paymentChoiceField(messageKey: string) {
  return z
    .string({ error: messageKey })
    .default("card")
    .refine(isPaymentChoiceValue, { error: messageKey });
}

/** The box's field: only "on" (a ticked checkbox) saves; anything else does not. */
export const saveCardField = z.string().optional();
