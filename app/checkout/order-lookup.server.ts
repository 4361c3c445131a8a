import { createHash, randomBytes } from "node:crypto";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { ORDER_LOOKUP_LIMITS, type OrderLookup } from "./order-lookup";
import { findOrderByFolioAndEmail } from "./orders.server";
import type { RequestContext } from "~/context";

/** The counters' table names no e-mail address: a digest keeps pairs apart. */
function addressDigest(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22);
}

/**
 * One more link e-mailed for this folio and address: within this requester's few a day first,
 * then within the purchase's ceiling, which only what a requester's own count allowed reaches
 * (one stranger's flood stops at their own count, and the owner's requests keep theirs). Counted
 * for every pair, matched or not, under keys only the right pair shares (decision 0082).
 */
export async function consumeLinkSent(
  context: Pick<RequestContext, "rateLimiter" | "clientAddressKey">,
  purchase: "order" | "invoice",
  folio: string,
  correo: string,
) {
  const pair = `${folio}:${addressDigest(correo)}`;
  const mine = await context.rateLimiter.consume([
    {
      key: `${purchase}-link-sent-by:${pair}:${context.clientAddressKey}`,
      rule: ORDER_LOOKUP_LIMITS.linksPerRequester,
    },
  ]);
  if (!mine.allowed) return mine;
  return context.rateLimiter.consume([
    { key: `${purchase}-link-sent:${pair}`, rule: ORDER_LOOKUP_LIMITS.linksPerOrder },
  ]);
}

export type OrderLookupOutcome =
  /** Whatever matched: a link went to the order's address if the pair was an order's. */
  { kind: "answered" } | { kind: "limited"; retryAfterSeconds: number };

/**
 * Folio and e-mail → a one-time link to the order, sent to the order's own address (decision
 * 0082). The caller learns nothing of whether the pair matched: the answer is the same, and so
 * is the work done (the ceiling of links per order is counted for any pair, under a key only the
 * right pair shares). Rejects with the counters' store error when it cannot be reached.
 */
export async function requestOrderLink(
  context: RequestContext,
  { folio, correo }: OrderLookup,
): Promise<OrderLookupOutcome> {
  const verdict = await context.rateLimiter.consume([
    { key: `order-lookup-ip:${context.clientAddressKey}`, rule: ORDER_LOOKUP_LIMITS.perClient },
    {
      key: `order-lookup-folio:${folio}:${context.clientAddressKey}`,
      rule: ORDER_LOOKUP_LIMITS.perFolioAndClient,
    },
  ]);
  if (!verdict.allowed) {
    return { kind: "limited", retryAfterSeconds: verdict.retryAfterSeconds };
  }
  const order = await findOrderByFolioAndEmail(context.db, folio, correo);
  const ceiling = await consumeLinkSent(context, "order", folio, correo);
  if (order && ceiling.allowed) {
    await enqueueMail(context.db, {
      // Each request is its own e-mail with its own link.
      dedupeKey: `order-link:${order.ref}:${randomBytes(9).toString("base64url")}`,
      to: order.customer.email,
      template: "order_link",
      data: { orderRef: order.ref },
    });
  } else if (order) {
    context.logger.warn({
      msg: "order links over the daily ceiling",
      requestId: context.requestId,
    });
  }
  return { kind: "answered" };
}
