import type { Logger } from "pino";
import * as z from "zod";
import { issueOrderLink } from "~/checkout/order-links.server";
import { findOrder, type Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import type { MailQueueTable } from "~/db/schema";
import { ensureEsimActivations } from "~/esim/activations.server";
import type { EsimProvisioner } from "~/esim/provisioning";
import { approvedPayment, paymentInstructions } from "~/payments/payments.server";
import { findTopup } from "~/topup/topups.server";
import { type TopupApplication, topupApplication } from "~/topup/topup-application.server";
import { type LineJobOutcome, lineJobOutcome } from "~/line/line-jobs.server";
import { type Bss, isBssUnavailable } from "~/line/bss";
import { daysLeft, isLineNumber, runningOut } from "~/line/line";
import { isNoticeWorthy, noticePackageKey } from "~/line/line-view";
import { accountOfLine } from "~/line/lines.server";
import { LINES_PATH } from "~/line/paths";
import {
  ACCOUNT_SECURITY_CHANGES,
  type MailData,
  type MailTemplate,
} from "~/mail-queue/mail-queue.server";
import { orderPortIns } from "~/portability/order-port-ins.server";
import { findRegistration } from "~/registration/registrations.server";
import { disputePath } from "~/registration/paths";
import {
  chargeOfTopup,
  findAutoTopupById,
  findCharge,
  paidThisMonth,
  type AutoTopup,
} from "~/auto-topup/auto-topups.server";
import { findSavedCardById } from "~/payments/saved-cards.server";
import { invoiceDocument } from "~/invoicing/invoice-document.server";
import { findInvoice } from "~/invoicing/invoices.server";
import { maskRfc } from "~/invoicing/fiscal-data";
import type { SupportContact } from "./layout";
import {
  renderMail,
  type MailContext,
  type AutoTopupMailView,
  type MailModels,
  type OrderView,
  type RenderedMail,
} from "./templates";

export interface ComposeDeps {
  db: Db;
  /** The store's public origin, for the links in the e-mail. */
  origin: string;
  /** Issues the eSIM codes an activation e-mail links to, if the order's page has not yet. */
  esim: EsimProvisioner;
  logger: Pick<Logger, "warn">;
  /** Reads a line as it is now (the running-out e-mail); without it that e-mail cannot be written. */
  bss?: Pick<Bss, "findLine">;
  /** The footer's contact line; none, no contact line. */
  support?: SupportContact | null;
  /**
   * Works a pending line job now (~/line/line-jobs.server.ts `runNow`): a top-up's receipt applies
   * the top-up first, so that it tells the line's vigencia. Without it, the receipt says it is
   * being applied.
   */
  runLineJob?: (id: string) => Promise<LineJobOutcome | null>;
  now?: () => Date;
}

/**
 * What became of a queued e-mail when the mailer tried to write it:
 * - ready: send it;
 * - permanent: it can never be written (what it is about is gone, or its data is not a
 *   template's): retrying would only repeat the failure;
 * - obsolete: what it would say is no longer true (a voucher already paid, a status changed
 *   again), so it is not sent; another e-mail tells the customer the news;
 * - retry: something it needs is out of reach for now (the eSIM provisioner).
 * Anything thrown (the database busy…) is for the mailer to retry as well.
 */
export type ComposeResult =
  | { kind: "ready"; mail: RenderedMail }
  | { kind: "permanent"; reason: string }
  | { kind: "obsolete"; reason: string }
  | { kind: "retry"; reason: string };

const id = z.string().min(1).max(200);

/** What enqueueMail stored for each template, as it must read back. */
const dataSchemas: { [T in MailTemplate]: z.ZodType<MailData[T]> } = {
  order_received: z.object({ orderRef: id }),
  payment_voucher: z.object({
    purpose: z.enum(["order", "topup"]),
    reference: id,
    paymentId: id,
  }),
  order_paid: z.object({ orderRef: id }),
  esim_activation: z.object({ orderRef: id }),
  order_link: z.object({ orderRef: id }),
  order_shipped: z.object({ orderRef: id }),
  topup_receipt: z.object({ topupId: id }),
  portability_received: z.object({ requestId: id }),
  portability_status: z.object({
    requestId: id,
    status: z.enum(["in_progress", "completed", "rejected"]),
  }),
  line_running_out: z.object({
    number: z.string().refine(isLineNumber),
    accountSub: id,
    packageKey: z.string().min(1).max(300),
  }),
  line_registered: z.object({ registrationId: id }),
  registration_notice: z.object({
    registrationId: id,
    token: z.string().regex(/^[0-9a-f]{32}$/),
  }),
  auto_topup_notice: z.object({ chargeId: id }),
  auto_topup_declined: z.object({
    chargeId: id,
    attempt: z.number().int().min(1).max(10),
    stopped: z.boolean(),
  }),
  auto_topup_action_required: z.object({ chargeId: id }),
  auto_topup_cap: z.object({ autoTopupId: id, month: z.string().regex(/^\d{4}-\d{2}$/) }),
  invoice_issued: z.object({ invoiceId: id }),
  account_security: z.object({ change: z.enum(ACCOUNT_SECURITY_CHANGES), at: z.iso.datetime() }),
};

export function isMailTemplate(value: string): value is MailTemplate {
  return Object.hasOwn(dataSchemas, value);
}

/** How long a receipt waits for a line job another worker is doing right now (a BSS call). */
const LINE_JOB_WAIT = { rounds: 12, everyMs: 250 } as const;

/**
 * Works a top-up's pending line job now; if another worker holds it, waits a few seconds for its
 * answer (bounded: the receipt then says the top-up is being applied).
 */
async function settleLineJob(
  db: Db,
  run: (id: string) => Promise<LineJobOutcome | null>,
  id: string,
): Promise<LineJobOutcome | null> {
  let outcome = await run(id);
  for (let round = 0; outcome?.state === "pending" && round < LINE_JOB_WAIT.rounds; round++) {
    await new Promise((resolve) => setTimeout(resolve, LINE_JOB_WAIT.everyMs));
    outcome = await lineJobOutcome(db, id);
  }
  return outcome;
}

/** The receipt page's account of a top-up's effect, as its e-mail tells it. */
function mailApplication(
  application: TopupApplication,
): MailModels["topup_receipt"]["application"] {
  return {
    state: application.state,
    validUntil: application.state === "applied" ? (application.line?.validUntil ?? null) : null,
  };
}

function toOrderView(order: Order): OrderView {
  return {
    folio: order.folio,
    customerName: order.customer.fullName,
    status: order.status,
    simType: order.simType,
    lines: order.lines.map((line) => ({
      planName: line.planName,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      lineTotal: line.lineTotal,
    })),
    total: order.total,
    delivery: order.delivery,
  };
}

/** What the automatic top-up's e-mails say of it: its settings and its card, as they are now. */
async function autoTopupMailView(db: Db, autoTopup: AutoTopup): Promise<AutoTopupMailView> {
  const card = await findSavedCardById(db, autoTopup.savedCardId);
  return {
    phoneNumber: autoTopup.number,
    amount: autoTopup.amount,
    trigger: autoTopup.trigger,
    thresholdMb: autoTopup.thresholdMb,
    monthlyMax: autoTopup.monthlyMax,
    card: card ? { brand: card.brand, last4: card.last4 } : null,
    // The account's lines, not the line's own address: an e-mail writes a number masked only.
    settingsPath: LINES_PATH,
  };
}

/** A charge and its automatic top-up, or why the e-mail about it cannot be written. */
async function chargeAndAutoTopup(db: Db, chargeId: string) {
  const charge = await findCharge(db, chargeId);
  const autoTopup = charge ? await findAutoTopupById(db, charge.autoTopupId) : null;
  return charge && autoTopup ? { charge, autoTopup } : null;
}

type Outcome<T extends MailTemplate> =
  { kind: "model"; model: MailModels[T] } | Exclude<ComposeResult, { kind: "ready" }>;

const permanent = (reason: string) => ({ kind: "permanent", reason }) as const;
const obsolete = (reason: string) => ({ kind: "obsolete", reason }) as const;
const model = <T extends MailTemplate>(value: MailModels[T]) =>
  ({ kind: "model", model: value }) as const;

type Loaders = {
  [T in MailTemplate]: (deps: ComposeDeps, data: MailData[T], now: Date) => Promise<Outcome<T>>;
};

const loaders: Loaders = {
  async order_received({ db }, { orderRef }) {
    const order = await findOrder(db, orderRef);
    if (!order) return permanent("order not found");
    if (order.status === "cancelled") return obsolete("order cancelled");
    return model<"order_received">({ order: toOrderView(order) });
  },

  async payment_voucher({ db }, data, now) {
    const payment = await db
      .selectFrom("payments")
      .selectAll()
      .where("id", "=", data.paymentId)
      .executeTakeFirst();
    if (!payment || payment.purpose !== data.purpose || payment.reference !== data.reference) {
      return permanent("payment not found");
    }
    if (payment.status !== "pending") return obsolete(`payment ${payment.status}`);
    const instructions = paymentInstructions(payment);
    if (!instructions) return permanent("payment without instructions");
    if (Date.parse(instructions.expiresAt) <= now.getTime()) return obsolete("voucher expired");
    const amount = Number(payment.amount);
    if (data.purpose === "order") {
      const order = await findOrder(db, data.reference);
      if (!order) return permanent("order not found");
      if (order.status !== "pending_payment") return obsolete(`order ${order.status}`);
      return model<"payment_voucher">({
        amount,
        instructions,
        subject: { kind: "order", folio: order.folio, customerName: order.customer.fullName },
      });
    }
    const topup = await findTopup(db, data.reference);
    if (!topup) return permanent("top-up not found");
    if (topup.status !== "pending_payment") return obsolete(`top-up ${topup.status}`);
    return model<"payment_voucher">({
      amount,
      instructions,
      subject: { kind: "topup", id: topup.id, folio: topup.folio, phoneNumber: topup.phoneNumber },
    });
  },

  async order_paid({ db }, { orderRef }) {
    const order = await findOrder(db, orderRef);
    if (!order) return permanent("order not found");
    if (order.status !== "paid") return permanent(`order ${order.status}`);
    return model<"order_paid">({
      order: toOrderView(order),
      paidWith: await approvedPayment(db, "order", order.ref),
      portIns: (await orderPortIns(db, order.ref)).map((portIn) => ({
        phoneNumber: portIn.phoneNumber,
        folio: portIn.request?.folio ?? null,
      })),
    });
  },

  async esim_activation({ db, esim, logger }, { orderRef }, now) {
    const order = await findOrder(db, orderRef);
    if (!order) return permanent("order not found");
    if (order.simType !== "esim") return permanent("not an eSIM order");
    if (order.status !== "paid") return permanent(`order ${order.status}`);
    // Issued before the e-mail goes, so that its link opens codes, not "try again later".
    const issued = await ensureEsimActivations(db, esim, logger, order);
    if (issued.status === "unavailable") {
      return { kind: "retry", reason: "eSIM provisioner unavailable" } as const;
    }
    const waiting = issued.activations.filter((activation) => activation.state === "issued");
    if (waiting.length === 0) return obsolete("every eSIM of the order is installed");
    return model<"esim_activation">({
      order: toOrderView(order),
      count: waiting.length,
      link: await issueOrderLink(db, order.ref, "esim", now),
    });
  },

  async order_link({ db }, { orderRef }, now) {
    const order = await findOrder(db, orderRef);
    if (!order) return permanent("order not found");
    return model<"order_link">({
      order: { folio: order.folio, customerName: order.customer.fullName },
      link: await issueOrderLink(db, order.ref, "lookup", now),
    });
  },

  async order_shipped({ db }, { orderRef }) {
    const order = await findOrder(db, orderRef);
    if (!order) return permanent("order not found");
    const shipping = await db
      .selectFrom("orders")
      .select(["shipped_at", "carrier", "tracking_number"])
      .where("id", "=", orderRef)
      .executeTakeFirst();
    if (!shipping?.shipped_at || !shipping.carrier || !shipping.tracking_number) {
      return permanent("order not shipped");
    }
    if (!order.delivery) return permanent("not a physical SIM order");
    return model<"order_shipped">({
      order: toOrderView(order),
      carrier: shipping.carrier,
      trackingNumber: shipping.tracking_number,
      shippedAt: shipping.shipped_at,
    });
  },

  async topup_receipt({ db, bss, logger, runLineJob }, { topupId }) {
    const topup = await findTopup(db, topupId);
    if (!topup) return permanent("top-up not found");
    if (topup.status === "cancelled") return obsolete("top-up cancelled");
    if (topup.status !== "paid" || !topup.paidAt) return permanent(`top-up ${topup.status}`);
    return model<"topup_receipt">({
      id: topup.id,
      folio: topup.folio,
      phoneNumber: topup.phoneNumber,
      amount: topup.amount,
      paidAt: topup.paidAt,
      paidWith: await approvedPayment(db, "topup", topup.id),
      automatic: (await chargeOfTopup(db, topup.id)) ? { settingsPath: LINES_PATH } : null,
      application: mailApplication(
        await topupApplication(
          {
            db,
            bss,
            logger,
            whilePending: runLineJob ? (jobId) => settleLineJob(db, runLineJob, jobId) : undefined,
          },
          topup,
        ),
      ),
    });
  },

  async portability_received({ db }, { requestId }) {
    const request = await db
      .selectFrom("portability_requests")
      .select(["folio", "full_name", "phone_number", "current_carrier", "created_at"])
      .where("id", "=", requestId)
      .executeTakeFirst();
    if (!request) return permanent("portability request not found");
    return model<"portability_received">({
      folio: request.folio,
      fullName: request.full_name,
      phoneNumber: request.phone_number,
      currentCarrier: request.current_carrier,
      createdAt: request.created_at,
    });
  },

  async portability_status({ db }, { requestId, status }) {
    const request = await db
      .selectFrom("portability_requests")
      .select(["folio", "full_name", "phone_number", "status", "scheduled_for", "rejection_reason"])
      .where("id", "=", requestId)
      .executeTakeFirst();
    if (!request) return permanent("portability request not found");
    // A later change has its own e-mail: this one would tell a state that no longer holds.
    if (request.status !== status) return obsolete(`request now ${request.status}`);
    const base = {
      folio: request.folio,
      fullName: request.full_name,
      phoneNumber: request.phone_number,
    };
    if (status === "in_progress") {
      if (!request.scheduled_for || !/^\d{4}-\d{2}-\d{2}$/.test(request.scheduled_for)) {
        return permanent("scheduled request without a date");
      }
      return model<"portability_status">({
        ...base,
        change: { status, scheduledFor: request.scheduled_for },
      });
    }
    if (status === "rejected") {
      const reason = request.rejection_reason?.trim() || null;
      return model<"portability_status">({ ...base, change: { status, reason } });
    }
    return model<"portability_status">({ ...base, change: { status } });
  },

  async line_running_out({ db, bss }, { number, accountSub, packageKey }, now) {
    if (!bss) return permanent("no BSS to read the line");
    // Moved to another account since: this address is no longer the line's.
    if ((await accountOfLine(db, number)) !== accountSub)
      return obsolete("line not in the account");
    let line;
    try {
      line = await bss.findLine(number);
    } catch (error) {
      if (isBssUnavailable(error)) return { kind: "retry", reason: "BSS unavailable" } as const;
      throw error;
    }
    if (!line?.package) return obsolete("no package in force");
    const reason = runningOut(line, now);
    // Topped up (a new vigencia's end) or no longer short: the news is no longer true.
    if (!isNoticeWorthy(reason) || noticePackageKey(line.package) !== packageKey) {
      return obsolete("no longer running out");
    }
    return model<"line_running_out">({
      phoneNumber: number,
      reason,
      packageName: line.package.name,
      endsAt: line.package.endsAt,
      daysLeft: daysLeft(line.package, now),
      data: line.balances.dataMb
        ? { remainingMb: line.balances.dataMb.remaining, totalMb: line.balances.dataMb.total }
        : null,
    });
  },

  invoice_issued: (deps, data, now) => invoiceLoader(deps, data, now),
  // All it tells is in the queue: what changed and when (no database to read).
  account_security: async (_deps, { change, at }) => model<"account_security">({ change, at }),

  async line_registered({ db }, { registrationId }) {
    const registration = await findRegistration(db, registrationId);
    if (!registration) return permanent("registration not found");
    // The holder's key only masked: an e-mail is no place for a whole CURP (issue 27).
    return model<"line_registered">({
      folio: registration.folio,
      phoneNumber: registration.number,
      holderName: registration.holderName,
      holderKeyMasked: registration.holderKeyMasked,
      registeredAt: registration.registeredAt,
    });
  },

  async registration_notice({ db }, { registrationId, token }) {
    const registration = await findRegistration(db, registrationId);
    if (!registration) return permanent("registration not found");
    // Neither the CURP nor the holder's name: the recipient may be someone else.
    return model<"registration_notice">({
      phoneNumber: registration.number,
      registeredAt: registration.registeredAt,
      disputePath: disputePath(token),
    });
  },

  async auto_topup_notice({ db }, { chargeId }) {
    const found = await chargeAndAutoTopup(db, chargeId);
    if (!found) return permanent("automatic top-up charge not found");
    const { charge, autoTopup } = found;
    // Superseded before it went (the line topped up otherwise): nothing will be charged.
    if (charge.state === "skipped" && charge.lastResult !== "cap") {
      return obsolete("charge no longer due");
    }
    const ending = charge.period.startsWith("paquete:");
    const reason = !ending ? "ended" : autoTopup.trigger === "low_data" ? "data" : "ending";
    return model<"auto_topup_notice">({
      autoTopup: await autoTopupMailView(db, autoTopup),
      reason,
      chargeAt: charge.dueAt,
      endsAt: ending ? charge.period.slice("paquete:".length) : null,
    });
  },

  async auto_topup_declined({ db }, { chargeId, stopped }) {
    const found = await chargeAndAutoTopup(db, chargeId);
    if (!found) return permanent("automatic top-up charge not found");
    const { charge, autoTopup } = found;
    return model<"auto_topup_declined">({
      autoTopup: await autoTopupMailView(db, autoTopup),
      declineReason: charge.lastResult ?? "card_declined",
      retryAt: stopped ? null : charge.dueAt,
      stopped,
      topupId: charge.topupId,
    });
  },

  async auto_topup_action_required({ db }, { chargeId }) {
    const found = await chargeAndAutoTopup(db, chargeId);
    if (!found?.charge.topupId) return permanent("automatic top-up charge not found");
    const topup = await findTopup(db, found.charge.topupId);
    // Paid meanwhile (the customer followed the receipt before the e-mail went).
    if (topup?.status !== "pending_payment") return obsolete("top-up no longer waiting");
    return model<"auto_topup_action_required">({
      autoTopup: await autoTopupMailView(db, found.autoTopup),
      topupId: topup.id,
    });
  },

  async auto_topup_cap({ db }, { autoTopupId, month }) {
    const autoTopup = await findAutoTopupById(db, autoTopupId);
    if (!autoTopup) return permanent("automatic top-up not found");
    return model<"auto_topup_cap">({
      autoTopup: await autoTopupMailView(db, autoTopup),
      // Mid-month: the month the cap was reached in, whenever the e-mail goes.
      chargedThisMonth: await paidThisMonth(db, autoTopup.id, new Date(`${month}-15T12:00:00Z`)),
    });
  },
};

const invoiceLoader: Loaders["invoice_issued"] = async ({ db }, { invoiceId }) => {
  const invoice = await findInvoice(db, invoiceId);
  if (!invoice) return permanent("invoice not found");
  if (invoice.state === "cancelled") return obsolete("invoice cancelled");
  const document = invoiceDocument(invoice);
  if (!document || !invoice.receiver || !invoice.total) return permanent("invoice not issued");
  return model<"invoice_issued">({
    folio: invoice.folio,
    uuid: document.uuid,
    purchase: { kind: invoice.purpose, ref: invoice.reference, folio: invoice.purchaseFolio },
    receiverName: invoice.receiver.name,
    receiverRfcMasked: maskRfc(invoice.receiver.rfc),
    total: invoice.total,
    issuedAt: document.issuedAt,
    sandbox: document.stamp.sandbox,
    xml: document.xml,
    pdf: await document.pdf(),
  });
};

async function composeTemplate<T extends MailTemplate>(
  deps: ComposeDeps,
  template: T,
  raw: unknown,
): Promise<ComposeResult> {
  const parsed = (dataSchemas[template] as z.ZodType<MailData[T]>).safeParse(raw);
  if (!parsed.success) return permanent(`data not of template ${template}`);
  const now = deps.now?.() ?? new Date();
  const outcome = await (loaders[template] as Loaders[T])(deps, parsed.data, now);
  if (outcome.kind !== "model") return outcome;
  const context: MailContext = {
    origin: deps.origin.replace(/\/+$/, ""),
    support: deps.support ?? null,
  };
  return { kind: "ready", mail: await renderMail(template, outcome.model, context) };
}

/**
 * Reads what a queued e-mail is about from the database, as it is now, and writes the e-mail.
 * The queue holds only ids (app/mail-queue/mail-queue.server.ts), so a retried e-mail tells the current
 * truth, and the queue holds no personal data beyond the address.
 */
export async function composeMail(
  deps: ComposeDeps,
  row: Pick<MailQueueTable, "template" | "data">,
): Promise<ComposeResult> {
  if (!isMailTemplate(row.template)) return permanent(`unknown template`);
  let raw: unknown;
  try {
    raw = JSON.parse(row.data);
  } catch {
    return permanent("data not JSON");
  }
  return composeTemplate(deps, row.template, raw);
}
