import type { AppLoadContext } from "@remix-run/node";
import { nowIso } from "~/db/db.server";
import type { BeginPaymentResult, PaymentPurpose } from "~/payments/payments.server";
import { markOrderPaid, type Order } from "./orders.server";

export const ORDER_PAYMENT_PURPOSE = "order";

/** An approved payment of an order marks the order paid, in the same transaction. */
export const orderPaymentPurpose: PaymentPurpose = {
  async onApproved(trx, payment) {
    await markOrderPaid(trx, payment.reference, nowIso());
  },
};

export function confirmationPath(ref: string): string {
  return `/confirmation?pedido=${encodeURIComponent(ref)}`;
}

/** Sends the customer to pay the order, resuming the payment in flight if there is one. */
export function beginOrderPayment(
  context: AppLoadContext,
  order: Order,
  description: string,
): Promise<BeginPaymentResult> {
  // From configuration only: a Host header is the client's to write (decision 0058).
  const origin = context.config.publicOrigin;
  return context.payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    description,
    returnUrl: `${origin}${confirmationPath(order.ref)}`,
    origin,
  });
}
