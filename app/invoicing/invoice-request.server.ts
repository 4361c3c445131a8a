import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { asOrderOwner } from "~/auth/email-trust.server";
import { getCustomer } from "~/auth/session.server";
import { loadOwnOrder } from "~/checkout/order-page-request.server";
import { findOrder, listCustomerOrders } from "~/checkout/orders.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { formMessage } from "~/lib/form-messages";
import { formatDateTime, formatDay } from "~/lib/dates";
import { invoicingLastDay } from "./deadline";
import { loadTopup } from "~/topup/receipt-request.server";
import { findTopup, listCustomerTopups } from "~/topup/topups.server";
import { checkRfc, type RfcKind } from "~/registration/rfc";
import { buildCfdi } from "./cfdi";
import { fiscalDataSchema, maskRfc, USE_SAVED_RFC, type FiscalData } from "./fiscal-data";
import {
  awaitIssued,
  claimInvoice,
  findInvoiceOfPurchase,
  findInvoiceProfile,
  hasBeenIssued,
  invoicesOfPurchases,
  recordIssued,
  releaseClaim,
  type Invoice,
  type InvoiceClaim,
} from "./invoices.server";
import { invoicePath } from "./paths";
import { isInvoiceProviderUnavailable, isInvoiceRefused, type PacRefusal } from "./provider";
import {
  invoiceability,
  orderPurchase,
  paymentKey,
  topupPurchase,
  type Invoiceability,
  type Purchase,
} from "./purchases.server";
import { FORMAS_PAGO, type FormaPago } from "./sat-catalogs";
import type { RequestContext } from "~/context";

/**
 * /facturacion (issue 29, decision 0116): who may invoice a purchase is who may see it — the
 * order's page's rule (the browser that placed it, the account that owns it, a one-time link
 * e-mailed to its address) and the top-up's (its receipt's unguessable address). The page is
 * reached with that same key (`?pedido=<ref>`, `?recarga=<id>`); a folio and an e-mail alone
 * open nothing (the lookup, ./invoice-lookup-request.server.ts, e-mails a link).
 */

/** The purchase this request names and may see; null when it names none; a 404 when foreign. */
export async function loadPurchase(
  context: RequestContext,
  request: Request,
): Promise<Purchase | null> {
  const params = new URL(request.url).searchParams;
  if (params.has("pedido")) {
    const { order } = await loadOwnOrder(context, request);
    return orderPurchase(context.db, order);
  }
  if (params.has("recarga")) {
    const topup = await loadTopup(context, params.get("recarga") ?? undefined);
    return topupPurchase(context.db, topup);
  }
  return null;
}

/** What the page shows of an invoice: never the whole RFC. */
export interface InvoiceView {
  folio: string;
  uuid: string;
  receiverName: string;
  receiverRfcMasked: string;
  total: string;
  issuedAt: string;
  email: string | null;
  sandbox: boolean;
  cancellation: "accepted" | "pending" | null;
}

export function invoiceView(invoice: Invoice): InvoiceView {
  return {
    folio: invoice.folio,
    uuid: invoice.uuid ?? "",
    receiverName: invoice.receiver?.name ?? "",
    receiverRfcMasked: invoice.receiver ? maskRfc(invoice.receiver.rfc) : "",
    total: invoice.total ?? "",
    issuedAt: invoice.issuedAt ? formatDateTime(invoice.issuedAt) : "",
    email: invoice.email,
    sandbox: invoice.stamp?.sandbox ?? false,
    cancellation: invoice.cancellation?.status ?? null,
  };
}

/** What the page shows of the purchase. */
export function purchaseView(purchase: Purchase, now: Date, monthsAfter: number) {
  const open = invoiceability(purchase, monthsAfter, now);
  return {
    kind: purchase.kind,
    ref: purchase.ref,
    folio: purchase.folio,
    total: purchase.total,
    paidAt: purchase.paidAt ? formatDateTime(purchase.paidAt) : null,
    items: purchase.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
    })),
    invoiceability: describe(open),
    payment: purchase.payment,
  };
}

/** The deadline told as its last day ("31 de enero de 2027"), never as the next day's midnight. */
function describe(open: Invoiceability) {
  const lastDay = (deadline: string) => formatDay(invoicingLastDay(deadline));
  return open.open
    ? { open: true as const, deadline: lastDay(open.deadline) }
    : {
        open: false as const,
        reason: open.reason,
        deadline: open.deadline ? lastDay(open.deadline) : null,
      };
}

/** The form's options for this purchase and customer, and what it starts with. */
async function formSetup(context: RequestContext, purchase: Purchase) {
  const customer = getCustomer(context);
  const profile = customer ? await findInvoiceProfile(context.db, customer.sub) : null;
  const saved = profile ? checkRfc(profile.rfc) : null;
  const savedRfcKind: RfcKind | null = saved?.ok ? saved.kind : null;
  return {
    options: { askCardKind: purchase.payment?.method === "card", savedRfcKind },
    savedRfc: profile && savedRfcKind ? profile.rfc : null,
    defaults: {
      nombre: profile?.name ?? "",
      regimen: profile?.regimen ?? "",
      codigo_postal: profile?.postalCode ?? "",
      uso: profile?.uso ?? "",
      correo: profile?.email || purchase.email || (customer?.email ?? ""),
      rfc_guardado: profile && savedRfcKind ? USE_SAVED_RFC : "",
    },
    savedRfcMasked: profile && savedRfcKind ? maskRfc(profile.rfc) : null,
  };
}

/** The signed-in customer's paid orders and top-ups, each with its invoice if it has one. */
async function accountPurchases(context: RequestContext, now: Date) {
  const customer = getCustomer(context);
  if (!customer) return null;
  const [orders, topups] = await Promise.all([
    listCustomerOrders(context.db, asOrderOwner(context, customer), 20),
    listCustomerTopups(context.db, customer.sub, 20),
  ]);
  const purchases: Purchase[] = [];
  for (const summary of orders.filter((order) => order.status === "paid")) {
    const order = await findOrder(context.db, summary.ref);
    if (order) purchases.push(await orderPurchase(context.db, order));
  }
  for (const summary of topups.filter((topup) => topup.status === "paid")) {
    const topup = await findTopup(context.db, summary.id);
    if (topup) purchases.push(await topupPurchase(context.db, topup));
  }
  purchases.sort((a, b) => (b.paidAt ?? "").localeCompare(a.paidAt ?? ""));
  const invoices = await invoicesOfPurchases(context.db, purchases);
  const monthsAfter = context.config.INVOICE_MONTHS_AFTER_PAYMENT;
  return purchases.map((purchase) => {
    const invoice = invoices.get(paymentKey(purchase));
    return {
      kind: purchase.kind,
      folio: purchase.folio,
      total: purchase.total,
      paidAt: purchase.paidAt ? formatDateTime(purchase.paidAt) : null,
      path: invoicePath(purchase),
      invoice: invoice
        ? { uuid: invoice.uuid ?? "", cancelled: invoice.state === "cancelled" }
        : null,
      open: invoiceability(purchase, monthsAfter, now).open,
    };
  });
}

/** /facturacion's data: a purchase's invoice or form, the account's list, or the lookup. */
export async function loadInvoicingPage(context: RequestContext, request: Request) {
  const now = new Date();
  const purchase = await loadPurchase(context, request);
  if (!purchase) {
    return { mode: "lookup" as const, purchases: await accountPurchases(context, now) };
  }
  const invoice = await findInvoiceOfPurchase(context.db, purchase);
  const monthsAfter = context.config.INVOICE_MONTHS_AFTER_PAYMENT;
  if (invoice && hasBeenIssued(invoice)) {
    return {
      mode: "issued" as const,
      purchase: purchaseView(purchase, now, monthsAfter),
      invoice: invoiceView(invoice),
    };
  }
  const setup = await formSetup(context, purchase);
  return {
    mode: "form" as const,
    purchase: purchaseView(purchase, now, monthsAfter),
    askCardKind: setup.options.askCardKind,
    savedRfcMasked: setup.savedRfcMasked,
    savedRfcKind: setup.options.savedRfcKind,
    defaults: setup.defaults,
  };
}

/** c_FormaPago of the payment: the card's kind as the customer said. */
function formaPagoOf(purchase: Purchase, fiscal: Pick<FiscalData, "cardKind">): FormaPago {
  switch (purchase.payment?.method) {
    case "cash":
      return FORMAS_PAGO.cash;
    case "spei":
      return FORMAS_PAGO.spei;
    default:
      return fiscal.cardKind === "debito" ? FORMAS_PAGO.debit : FORMAS_PAGO.credit;
  }
}

/** The PAC's refusal as the form shows it: next to its field, or for the whole form. */
function refusalErrors(refusal: PacRefusal) {
  const message =
    refusal.reason === "other"
      ? refusal.message
        ? formMessage("invoicing:refusals.otherWithReason", {
            reason: refusal.message.replace(/\s+/g, " ").slice(0, 200),
          })
        : "invoicing:refusals.other"
      : `invoicing:refusals.${refusal.reason}`;
  return refusal.field
    ? { fieldErrors: { [refusal.field]: [message] }, formErrors: ["invoicing:refusals.heading"] }
    : { formErrors: [message] };
}

/**
 * The form of /facturacion?pedido=… or ?recarga=…: the fiscal data checked, the invoice claimed
 * (one per payment), the CFDI built and stamped, recorded with its e-mail, then the page again
 * (which shows it). A payment already invoiced answers with its invoice, whatever was typed.
 */
export async function submitInvoice(context: RequestContext, request: Request) {
  const purchase = await loadPurchase(context, request);
  if (!purchase) throw data(null, { status: 404 });
  const formData = await request.formData();
  const setup = await formSetup(context, purchase);
  const submission = parseWithZod(formData, { schema: fiscalDataSchema(setup.options) });
  const here = invoicePath(purchase);
  const existing = await findInvoiceOfPurchase(context.db, purchase);
  if (existing && hasBeenIssued(existing)) return redirect(here, { status: 303 });
  const open = invoiceability(purchase, context.config.INVOICE_MONTHS_AFTER_PAYMENT, new Date());
  if (!open.open) {
    return data(
      { result: submission.reply({ formErrors: [`invoicing:closed.${open.reason}`] }) },
      { status: 409 },
    );
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const form = submission.value;
  const rfc = form.rfc ?? setup.savedRfc;
  if (!rfc) {
    return data(
      { result: submission.reply({ fieldErrors: { rfc: ["invoicing:errors.rfcRequired"] } }) },
      { status: 400 },
    );
  }
  const fiscal = { ...form, rfc };
  const customer = getCustomer(context);
  let claimed;
  try {
    claimed = await claimInvoice(context.db, {
      purchase,
      fiscal,
      formaPago: formaPagoOf(purchase, form),
      accountSub: customer?.sub ?? null,
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, "invoice", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    });
  }
  if (claimed.kind === "issued") return redirect(here, { status: 303 });
  if (claimed.kind === "busy") {
    // Another submission of this payment is with the PAC now: its invoice is this one too.
    const issued = await awaitIssued(context.db, purchase);
    if (issued) return redirect(here, { status: 303 });
    return data(
      { result: submission.reply({ formErrors: ["invoicing:errors.inProgress"] }) },
      { status: 409, headers: { "Retry-After": "5" } },
    );
  }
  const refused = await stampClaimed(
    context,
    claimed.claim,
    purchase,
    fiscal,
    customer?.sub ?? null,
    submission,
  );
  return refused ?? redirect(here, { status: 303 });
}

/** Asks the PAC under the claim and records its answer; null once the invoice is issued. */
async function stampClaimed(
  context: RequestContext,
  claim: InvoiceClaim,
  purchase: Purchase,
  fiscal: FiscalData & { rfc: string },
  accountSub: string | null,
  submission: {
    reply: (options?: {
      formErrors?: string[];
      fieldErrors?: Record<string, string[]>;
    }) => SubmissionResult<string[]>;
  },
) {
  const { config } = context;
  const [, year, sequence] = claim.invoice.folio.split("-");
  const cfdi = buildCfdi({
    series: "FAC",
    folio: `${year}-${sequence}`,
    issuedAt: new Date().toISOString(),
    issuer: {
      rfc: config.INVOICE_ISSUER_RFC,
      name: config.INVOICE_ISSUER_NAME,
      regimen: config.INVOICE_ISSUER_REGIMEN,
      postalCode: config.INVOICE_ISSUER_POSTAL_CODE,
    },
    receiver: {
      rfc: fiscal.rfc,
      name: fiscal.name,
      regimen: fiscal.regimen,
      postalCode: fiscal.postalCode,
      uso: fiscal.uso,
    },
    formaPago: claim.invoice.formaPago as FormaPago,
    items: purchase.items,
  });
  const log = {
    requestId: context.requestId,
    invoice: claim.invoice.folio,
    purchase: purchase.folio,
  };
  let stamped;
  try {
    stamped = await context.invoicing.stamp({
      cfdi,
      items: purchase.items,
      idempotencyKey: claim.idempotencyKey,
      resuming: claim.resuming,
    });
  } catch (error) {
    if (isInvoiceRefused(error)) {
      await releaseClaim(context.db, claim, error.refusal.code);
      context.logger.info({ msg: "invoice refused by the PAC", ...log, code: error.refusal.code });
      return data({ result: submission.reply(refusalErrors(error.refusal)) }, { status: 400 });
    }
    await releaseClaim(context.db, claim, null);
    if (isInvoiceProviderUnavailable(error)) {
      context.logger.warn({ msg: "invoicing provider unavailable", ...log, reason: error.reason });
      return data(
        { result: submission.reply({ formErrors: ["invoicing:errors.providerUnavailable"] }) },
        { status: 503, headers: { "Retry-After": "30" } },
      );
    }
    throw error;
  }
  const recorded = await recordIssued(context.db, claim, {
    cfdi,
    stamped,
    saveProfileFor: accountSub,
  });
  if (recorded) {
    context.logger.info({ msg: "invoice issued", ...log, provider: stamped.provider });
    context.mailer.nudge();
  }
  return null;
}
