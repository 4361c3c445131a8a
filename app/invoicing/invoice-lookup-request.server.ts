import { randomBytes } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { ORDER_LOOKUP_LIMITS } from "~/checkout/order-lookup";
import { consumeLinkSent, requestOrderLink } from "~/checkout/order-lookup.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { invoiceLookupSchema, type InvoiceLookup } from "./invoice-lookup";
import type { RequestContext } from "~/context";

/**
 * Folio and e-mail → the link that opens the purchase, sent to the purchase's own address
 * (decisions 0082, 0116): for an order, /pedido's one-time link (the very same request, limits
 * and e-mail), whose page has "Solicitar factura"; for a paid top-up, its receipt again, whose
 * address is the receipt's key and whose e-mail links its invoicing. The answer is the same
 * whether or not anything matched: this page shows nothing of any purchase.
 */
export async function submitInvoiceLookup(context: RequestContext, request: Request) {
  const submission = parseWithZod(await request.formData(), { schema: invoiceLookupSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sent: false }, { status: 400 });
  }
  try {
    const outcome = submission.value.folio.startsWith("PED-")
      ? await requestOrderLink(context, submission.value)
      : await requestTopupReceipt(context, submission.value);
    if (outcome.kind === "limited") {
      context.logger.warn({ msg: "invoice lookups over the limit", requestId: context.requestId });
      return data(
        { result: submission.reply({ formErrors: ["invoicing:lookup.limited"] }), sent: false },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
      );
    }
  } catch (error) {
    return databaseBusyOrRethrow(context, "invoice lookup", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
      sent: false,
    });
  }
  context.mailer.nudge();
  return data({ result: submission.reply(), sent: true });
}

/** A paid top-up's receipt again, to its own address, within the order lookup's limits. */
async function requestTopupReceipt(
  context: RequestContext,
  { folio, correo }: InvoiceLookup,
): Promise<{ kind: "answered" } | { kind: "limited"; retryAfterSeconds: number }> {
  const verdict = await context.rateLimiter.consume([
    { key: `invoice-lookup-ip:${context.clientAddressKey}`, rule: ORDER_LOOKUP_LIMITS.perClient },
    {
      key: `invoice-lookup-folio:${folio}:${context.clientAddressKey}`,
      rule: ORDER_LOOKUP_LIMITS.perFolioAndClient,
    },
  ]);
  if (!verdict.allowed) return { kind: "limited", retryAfterSeconds: verdict.retryAfterSeconds };
  const topup = await context.db
    .selectFrom("topups")
    .select(["id", "email", "status"])
    .where("folio", "=", folio)
    .executeTakeFirst();
  const matches =
    topup?.status === "paid" &&
    topup.email !== null &&
    topup.email.trim().toLowerCase() === correo.trim().toLowerCase();
  const ceiling = await consumeLinkSent(context, "invoice", folio, correo);
  if (topup && matches && ceiling.allowed) {
    await enqueueMail(context.db, {
      dedupeKey: `topup-receipt-again:${topup.id}:${randomBytes(9).toString("base64url")}`,
      to: topup.email!,
      template: "topup_receipt",
      data: { topupId: topup.id },
    });
  }
  return { kind: "answered" };
}
