import * as z from "zod";
import "~/lib/zod-without-eval";
import { PAYMENT_METHODS } from "./provider";

/**
 * The "pay now" form of an order or a top-up waiting for payment: the method, card checked by
 * default. Messages are translation keys.
 */
export const paymentChoiceSchema = z.object({
  payment_method: z
    .enum(PAYMENT_METHODS, { error: "commerce:checkout.errors.paymentMethodRequired" })
    .default("card"),
});
