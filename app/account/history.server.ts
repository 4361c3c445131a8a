import { confirmationPath } from "~/checkout/paths";
import { listCustomerOrders, type OrderOwner } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { formatDateTime } from "~/lib/dates";
import { listCustomerPortabilityRequests } from "~/portability/requests.server";
import { receiptPath } from "~/topup/paths";
import { maskPhoneNumber } from "~/topup/phone";
import { listCustomerTopups, savedLines } from "~/topup/topups.server";

const RECENT = 5;

/**
 * What the account overview shows of the customer's activity: recent top-ups, orders and
 * portability requests (made while signed in, or as a guest with their proved e-mail; newest
 * first) and the saved lines.
 * Lines leave the server masked: the overview only needs to recognise them. The account's own
 * capability: it reads top-ups and orders through theirs.
 */
export async function loadAccountHistory(db: Db, customer: OrderOwner) {
  const customerSub = customer.sub;
  const [topups, orders, lines, portability] = await Promise.all([
    listCustomerTopups(db, customerSub, RECENT),
    listCustomerOrders(db, customer, RECENT),
    savedLines(db, customerSub),
    listCustomerPortabilityRequests(db, customer, RECENT),
  ]);
  return {
    topups: topups.map((topup) => ({
      folio: topup.folio,
      href: receiptPath(topup.id),
      maskedLine: maskPhoneNumber(topup.phoneNumber),
      amount: topup.amount,
      status: topup.status,
      date: formatDateTime(topup.createdAt),
    })),
    orders: orders.map((order) => ({
      folio: order.folio,
      href: confirmationPath(order.ref),
      total: order.total,
      status: order.status,
      date: formatDateTime(order.createdAt),
    })),
    maskedLines: lines.map(maskPhoneNumber),
    portability: portability.map((request) => ({
      folio: request.folio,
      status: request.status,
      scheduledFor: request.scheduledFor,
      maskedLine: maskPhoneNumber(request.phoneNumber),
      date: formatDateTime(request.createdAt),
    })),
  };
}

export type AccountHistory = Awaited<ReturnType<typeof loadAccountHistory>>;
