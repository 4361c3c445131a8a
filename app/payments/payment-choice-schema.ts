import * as z from "zod";
import "~/lib/zod-without-eval";
import { paymentChoiceField, saveCardField, toPaymentChoice } from "./payment-choice";

/**
 * The "pay now" form of an order or a top-up waiting for payment: the method or a saved card,
 * card checked by default, and the box that saves the card. Messages are translation keys.
 */
export const paymentChoiceSchema = z
  .object({
    payment_method: paymentChoiceField("commerce:checkout.errors.paymentMethodRequired"),
    save_card: saveCardField,
  })
  .transform((value) => toPaymentChoice(value.payment_method, value.save_card === "on"));
