import type { Db } from "~/db/db.server";
import type { Order } from "~/checkout/orders.server";
import type { Topup } from "~/topup/topups.server";
import { approvedPayment, type ApprovedPayment } from "~/payments/payments.server";
import { maskPhoneNumber } from "~/topup/phone";
import type { CfdiItem } from "./cfdi";
import { isInvoicingOpen, invoicingDeadline } from "./deadline";

/**
 * What the store sold that a customer may invoice (issue 29): a paid order or a paid top-up, with
 * the concepts its CFDI lists and how it was paid. Read from the orders, top-ups and payments
 * their capabilities keep; invoicing writes none of them.
 */

export type PurchaseKind = "order" | "topup";

export interface Purchase {
  kind: PurchaseKind;
  /** The order's unguessable reference, or the top-up's id (its receipt's address). */
  ref: string;
  folio: string;
  status: "pending_payment" | "paid" | "cancelled";
  paidAt: string | null;
  /** The address the order or top-up was placed with, if any. */
  email: string | null;
  /** Who placed it signed in, if anyone. */
  customerSub: string | null;
  total: number;
  items: CfdiItem[];
  /** The approved payment, once there is one. */
  payment: ApprovedPayment | null;
}

/** One invoice per payment: the key the invoices table is unique on. */
export function paymentKey(purchase: Pick<Purchase, "kind" | "ref">): string {
  return `${purchase.kind}:${purchase.ref}`;
}

export async function orderPurchase(db: Db, order: Order): Promise<Purchase> {
  const sim = order.simType === "esim" ? "eSIM" : "SIM física";
  return {
    kind: "order",
    ref: order.ref,
    folio: order.folio,
    status: order.status,
    paidAt: order.paidAt,
    email: order.customer.email,
    customerSub: order.customerSub,
    total: order.total,
    items: order.lines.map((line) => ({
      sku: line.planId,
      description: `Plan ${line.planName}: servicio de telefonía celular prepago, con ${sim} incluida`,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
    })),
    payment: await approvedPayment(db, "order", order.ref),
  };
}

export async function topupPurchase(db: Db, topup: Topup): Promise<Purchase> {
  return {
    kind: "topup",
    ref: topup.id,
    folio: topup.folio,
    status: topup.status,
    paidAt: topup.paidAt,
    email: topup.email,
    customerSub: topup.customerSub,
    total: topup.amount,
    items: [
      {
        sku: `recarga-${topup.amount}`,
        description: `Recarga de saldo a la línea ${maskPhoneNumber(topup.phoneNumber)}: servicio de telefonía celular prepago`,
        quantity: 1,
        unitPrice: topup.amount,
      },
    ],
    payment: await approvedPayment(db, "topup", topup.id),
  };
}

export type Invoiceability =
  | { open: true; deadline: string }
  /** Not paid (yet), cancelled unpaid, or past the deadline. */
  | { open: false; reason: "not_paid" | "cancelled" | "expired"; deadline: string | null };

/** Whether the purchase may be invoiced now, and until when. */
export function invoiceability(purchase: Purchase, monthsAfter: number, now: Date): Invoiceability {
  if (purchase.status === "cancelled") return { open: false, reason: "cancelled", deadline: null };
  if (purchase.status !== "paid" || !purchase.paidAt || !purchase.payment) {
    return { open: false, reason: "not_paid", deadline: null };
  }
  const deadline = invoicingDeadline(purchase.paidAt, monthsAfter);
  return isInvoicingOpen(purchase.paidAt, monthsAfter, now)
    ? { open: true, deadline }
    : { open: false, reason: "expired", deadline };
}
