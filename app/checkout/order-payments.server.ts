import { nowIso } from "~/db/db.server";
import { getFixedT } from "~/i18n/i18n.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import type { Payable } from "~/payments/pay-for.server";
import type { PaymentPurpose } from "~/payments/payments.server";
import { fileOrderPortIns, forgetOrderPortIns } from "~/portability/order-port-ins.server";
import { forgetOrderHolder } from "~/registration/order-holders.server";
import { cancelOrder, markOrderPaid, type Order } from "./orders.server";
import { confirmationPath } from "./paths";

export const ORDER_PAYMENT_PURPOSE = "order";

/**
 * An approved payment of an order marks the order paid, files the numbers it keeps as
 * portability requests (decision 0106) and queues its e-mails (paid; eSIM codes); a voucher or
 * transfer that expired unpaid cancels it and forgets its holder and numbers; one issued is
 * e-mailed. Each in the transaction that settles the payment, so an e-mail exists exactly when
 * what it tells does, and a request is filed exactly when its order is paid.
 */
export const orderPaymentPurpose: PaymentPurpose = {
  async onApproved(trx, payment) {
    const paidAt = nowIso();
    if (!(await markOrderPaid(trx, payment.reference, paidAt))) return;
    await fileOrderPortIns(trx, payment.reference, new Date(paidAt));
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
    // Unpaid, its lines will never be activated: the holder it named is not kept (decision 0101),
    if (await cancelOrder(trx, payment.reference, nowIso())) {
      await forgetOrderHolder(trx, payment.reference);
      // Nor the numbers it would have kept, their NIPs with them.
      await forgetOrderPortIns(trx, payment.reference);
    }
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

/** An order as the customer pays for it (`payFor`): by its page, while it waits for payment. */
export function orderPayment(order: Order): Payable {
  return {
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    description: getFixedT("commerce")("checkout.paymentDescription", { folio: order.folio }),
    path: confirmationPath(order.ref),
    customerEmail: order.customer.email,
    awaitingPayment: order.status === "pending_payment",
  };
}
