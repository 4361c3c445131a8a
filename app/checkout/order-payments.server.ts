import { redirect, type AppLoadContext } from "@remix-run/node";
import { nowIso } from "~/db/db.server";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { beginPaymentHere } from "~/payments/begin-payment.server";
import type { BeginPaymentResult, PaymentPurpose } from "~/payments/payments.server";
import { isPaymentProviderUnavailable, type PaymentMethod } from "~/payments/provider";
import { cancelOrder, markOrderPaid, type Order } from "./orders.server";
import { confirmationPath } from "./paths";

export const ORDER_PAYMENT_PURPOSE = "order";

/**
 * An approved payment of an order marks the order paid and queues its e-mails (paid; eSIM codes);
 * a voucher or transfer that expired unpaid cancels it; one issued is e-mailed. Each in the
 * transaction that settles the payment, so an e-mail exists exactly when what it tells does.
 */
export const orderPaymentPurpose: PaymentPurpose = {
  async onApproved(trx, payment) {
    if (!(await markOrderPaid(trx, payment.reference, nowIso()))) return;
    const order = await trx
      .selectFrom("orders")
      .select(["id", "email", "sim_type"])
      .where("id", "=", payment.reference)
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, {
      dedupeKey: `order-paid:${order.id}`,
      to: order.email,
      template: "order_paid",
      data: { orderRef: order.id },
    });
    if (order.sim_type === "esim") {
      await enqueueMail(trx, {
        dedupeKey: `esim-activation:${order.id}`,
        to: order.email,
        template: "esim_activation",
        data: { orderRef: order.id },
      });
    }
  },
  async onExpired(trx, payment) {
    await cancelOrder(trx, payment.reference, nowIso());
  },
  async onInstructions(trx, payment) {
    const order = await trx
      .selectFrom("orders")
      .select(["id", "email"])
      .where("id", "=", payment.reference)
      .executeTakeFirstOrThrow();
    await enqueueMail(trx, {
      dedupeKey: `payment-voucher:${payment.id}`,
      to: order.email,
      template: "payment_voucher",
      data: { purpose: "order", reference: order.id, paymentId: payment.id },
    });
  },
};

/**
 * Opens the order's payment by the chosen method, or resumes the one in flight. Throws
 * PaymentProviderUnavailable when the provider cannot be reached: the order stays, pending.
 */
export function beginOrderPayment(
  context: AppLoadContext,
  order: Order,
  method: PaymentMethod,
): Promise<BeginPaymentResult> {
  // From configuration only: a Host header is the client's to write (decision 0058).
  const origin = context.config.publicOrigin;
  return beginPaymentHere(context, {
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    method,
    description: getFixedT("commerce")("checkout.paymentDescription", { folio: order.folio }),
    returnUrl: `${origin}${confirmationPath(order.ref)}`,
    origin,
    customerEmail: order.customer.email,
  });
}

/**
 * Where the customer goes to pay the order by this method: the provider's page, or the order's
 * page with the voucher or transfer details. A provider out of reach leaves the order pending,
 * and the order's page says so in Spanish with the way to try again.
 */
export async function payOrder(
  context: AppLoadContext,
  order: Order,
  method: PaymentMethod,
): Promise<Response> {
  try {
    const result = await beginOrderPayment(context, order, method);
    const target = result.kind === "redirect" ? result.url : confirmationPath(order.ref);
    return redirect(target, { status: 303 });
  } catch (error) {
    if (!isPaymentProviderUnavailable(error)) throw error;
    setFlash(context, { kind: "error", key: "commerce:payment.unavailable" });
    return redirect(confirmationPath(order.ref), { status: 303 });
  }
}
