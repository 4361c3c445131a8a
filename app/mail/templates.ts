import bwipjs from "bwip-js/node";
import { formatPrice, formatTotal } from "~/catalog/money";
import {
  ESIM_DELIVERY,
  LINE_ACTIVATION,
  PHYSICAL_SIM_DELIVERY,
  PORTABILITY_MAX_HOURS,
  type SimType,
} from "~/catalog/terms";
import { formatDate, formatDateTime, formatDay } from "~/lib/dates";
import { formatClabe } from "~/payments/clabe";
import type { CardBrand, PaymentInstructions, PaymentMethod } from "~/payments/provider";
import { carrierLabel } from "~/portability/display";
import { findTopupAmount, formatData } from "~/topup/amounts";
import { receiptPath } from "~/topup/paths";
import { maskPhoneNumber } from "~/topup/phone";
import { orderLinkPath } from "~/checkout/paths";
import { LINES_PATH, SIM_ACTIVATION_PATH } from "~/line/paths";
import type { AccountSecurityChange, MailTemplate } from "~/mail-queue/mail-queue.server";
import { invoiceLookupPath, invoicePath } from "~/invoicing/paths";
import { REGISTRATION_GIVE_UP_MS } from "~/registration/holder-proof";
import { isWebUrl, renderDocument, type Block, type Fact, type SupportContact } from "./layout";
import { hasMailText, mailT } from "./mail-text";

/**
 * The customer e-mails, one function per template: from what the mailer read in the database
 * (a view model, nothing else) to the subject, the plain text, the HTML and inline images.
 * No database and no clock here: the same model always renders the same e-mail.
 */

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Referenced from the HTML as `cid:<cid>`: shown inline, not as a file to download. */
  cid?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

/** What every e-mail needs besides its own data. */
export interface MailContext {
  /** The store's public origin (`PUBLIC_BASE_URL`), for the links. */
  origin: string;
  support: SupportContact | null;
}

export interface OrderView {
  folio: string;
  customerName: string;
  status: "pending_payment" | "paid" | "cancelled";
  simType: SimType;
  lines: Array<{ planName: string; quantity: number; unitPrice: number; lineTotal: number }>;
  total: number;
  /** Where a physical SIM goes; null for eSIM. `state` is an ISO 3166-2:MX code ("CMX"). */
  delivery: {
    street: string;
    exteriorNumber: string;
    interiorNumber: string | null;
    neighborhood: string;
    postalCode: string;
    municipality: string;
    state: string;
  } | null;
}

/** How an approved payment was made, as the customer may want to see it. */
export interface PaidWith {
  method: PaymentMethod;
  cardBrand: CardBrand | null;
  cardLast4: string | null;
}

/** A one-time link that opens an order (decision 0082): its secret and when it stops working. */
export interface OrderLinkView {
  token: string;
  expiresAt: string;
}

export type PortabilityChange =
  /** Scheduled: `scheduledFor` is the day (YYYY-MM-DD, Mexico City). */
  | { status: "in_progress"; scheduledFor: string }
  | { status: "completed" }
  | { status: "rejected"; reason: string | null };

/** What each template is rendered from. Phone numbers come whole: the templates mask them. */
export interface MailModels {
  order_received: { order: OrderView };
  payment_voucher: {
    amount: number;
    instructions: PaymentInstructions;
    subject:
      | { kind: "order"; folio: string; customerName: string }
      | { kind: "topup"; id: string; folio: string; phoneNumber: string };
  };
  /**
   * `portIns`: the numbers the order keeps, each with its request's folio, or null when it was
   * not filed because the number already had a request in process (decision 0106).
   */
  order_paid: {
    order: OrderView;
    paidWith: PaidWith | null;
    portIns?: Array<{ phoneNumber: string; folio: string | null }>;
  };
  /** `count`: how many eSIMs the link shows the codes of. */
  esim_activation: { order: OrderView; count: number; link: OrderLinkView };
  order_link: { order: { folio: string; customerName: string }; link: OrderLinkView };
  order_shipped: { order: OrderView; carrier: string; trackingNumber: string; shippedAt: string };
  topup_receipt: {
    id: string;
    folio: string;
    phoneNumber: string;
    amount: number;
    paidAt: string;
    paidWith: PaidWith | null;
    /** Made by the line's automatic top-up (decision 0120): where to change it (the account's lines). */
    automatic: { settingsPath: string } | null;
    /**
     * What it did to the line, as the receipt page tells it (~/topup/topup-application.server.ts):
     * `validUntil` is the line's vigencia from the BSS once applied (formatted), never the payment
     * date plus the amount's days (issue 48).
     */
    application: { state: "none" | "pending" | "refused" | "applied"; validUntil: string | null };
  };
  portability_received: {
    folio: string;
    fullName: string;
    phoneNumber: string;
    currentCarrier: string;
    createdAt: string;
  };
  portability_status: {
    folio: string;
    fullName: string;
    phoneNumber: string;
    change: PortabilityChange;
  };
  line_running_out: {
    phoneNumber: string;
    reason: "data" | "ending";
    packageName: string;
    /** The line's vigencia. */
    endsAt: string;
    daysLeft: number;
    data: { remainingMb: number; totalMb: number } | null;
  };
  line_registered: {
    folio: string;
    phoneNumber: string;
    holderName: string;
    /** "GOMA••••••••••••09": never the whole CURP, RFC or passport. */
    holderKeyMasked: string;
    registeredAt: string;
  };
  registration_notice: {
    /** The line just registered to the person (shown masked). */
    phoneNumber: string;
    registeredAt: string;
    /** The "no fui yo" page's path, with its opaque token (never the CURP). */
    disputePath: string;
  };
  auto_topup_notice: {
    autoTopup: AutoTopupMailView;
    /**
     * ending: the package ends within a day and is charged at `chargeAt`; data: the line has
     * less data than asked, charged now; ended: the package ended, charged now.
     */
    reason: "ending" | "data" | "ended";
    chargeAt: string;
    /** The end of the package in force, for "ending". */
    endsAt: string | null;
  };
  auto_topup_declined: {
    autoTopup: AutoTopupMailView;
    /** A key of commerce:payment.declineReasons. */
    declineReason: string;
    /** When it is tried again; null once stopped. */
    retryAt: string | null;
    stopped: boolean;
    /** The top-up left unpaid, payable from its receipt. */
    topupId: string | null;
  };
  auto_topup_action_required: { autoTopup: AutoTopupMailView; topupId: string };
  auto_topup_cap: { autoTopup: AutoTopupMailView; chargedThisMonth: number };
  invoice_issued: {
    folio: string;
    uuid: string;
    purchase: { kind: "order" | "topup"; ref: string; folio: string };
    receiverName: string;
    /** "GOMA•••••••B1". */
    receiverRfcMasked: string;
    total: string;
    issuedAt: string;
    /** The sandbox's: no fiscal validity, said in the e-mail too. */
    sandbox: boolean;
    xml: string;
    pdf: Buffer;
  };
  account_security: { change: AccountSecurityChange; at: string };
}

/** What the automatic top-up's e-mails say of it (decision 0120). */
export interface AutoTopupMailView {
  phoneNumber: string;
  amount: number;
  trigger: "expiry" | "low_data";
  thresholdMb: number | null;
  monthlyMax: number;
  card: { brand: CardBrand; last4: string } | null;
  /** Where its settings are reached: the account's lines (a path without the number). */
  settingsPath: string;
}

/** The account's security page, where each sign-in method can be reviewed and removed. */
const ACCOUNT_SECURITY_PATH = "/my-account/seguridad";

/**
 * A change to how the account signs in (decision 0134): what changed and when, what to do if it
 * was not the customer, and the page to review it.
 */
async function accountSecurity(
  model: MailModels["account_security"],
  context: MailContext,
): Promise<RenderedMail> {
  const key = `accountSecurity.changes.${model.change}`;
  return compose(
    mailT(`${key}.subject`),
    null,
    [
      { kind: "heading", text: mailT(`${key}.heading`) },
      paragraph(mailT(`${key}.lead`)),
      {
        kind: "facts",
        rows: [{ label: mailT("accountSecurity.when"), value: formatDateTime(model.at) }],
      },
      paragraph(mailT("accountSecurity.notYou"), "notice"),
      {
        kind: "button",
        lead: mailT("accountSecurity.reviewLead"),
        label: mailT("accountSecurity.reviewButton"),
        href: `${context.origin}${ACCOUNT_SECURITY_PATH}`,
      },
    ],
    context,
  );
}

// ---------------------------------------------------------------------------------------------
// Pieces shared by several e-mails

/** The page where a customer finds an order again by its folio (never by e-mail address). */
export function orderLookupUrl(origin: string, folio: string): string {
  return `${origin}/pedido?folio=${encodeURIComponent(folio)}`;
}

/** Where a one-time order link leads: its secret in the query, which logs never keep. */
export function orderLinkUrl(origin: string, token: string): string {
  return `${origin}${orderLinkPath(token)}`;
}

/**
 * Where a purchase is invoiced, from an e-mail: a top-up's page by its receipt's key (the receipt
 * e-mail already carries it), an order's lookup by its folio (the order's page needs this browser
 * or an account, decision 0082).
 */
export function invoicingUrl(
  origin: string,
  purchase: { kind: "order" | "topup"; ref: string; folio: string },
): string {
  return `${origin}${purchase.kind === "topup" ? invoicePath(purchase) : invoiceLookupPath(purchase.folio)}`;
}

function invoicingButton(
  context: MailContext,
  purchase: { kind: "order" | "topup"; ref: string; folio: string },
): Block {
  return {
    kind: "button",
    lead: mailT("invoicing.requestLead"),
    label: mailT("invoicing.requestButton"),
    href: invoicingUrl(context.origin, purchase),
  };
}

export function topupReceiptUrl(origin: string, topupId: string): string {
  return `${origin}${receiptPath(topupId)}`;
}

export const PORTABILITY_LOOKUP_PATH = "/portabilidad#consulta";
export const PORTABILITY_FORM_PATH = "/portabilidad#solicitud";

function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

function lineDescription(line: OrderView["lines"][number]): string {
  return line.quantity === 1
    ? mailT("labels.quantity", { count: 1, name: line.planName })
    : mailT("labels.quantityEach", {
        count: line.quantity,
        name: line.planName,
        price: formatPrice(line.unitPrice),
      });
}

function orderLines(order: OrderView, totalLabel: string): Block {
  return {
    kind: "lines",
    heading: mailT("labels.orderLines"),
    rows: order.lines.map((line) => ({
      description: lineDescription(line),
      amount: formatPrice(line.lineTotal),
    })),
    total: { label: totalLabel, amount: formatTotal(order.total) },
  };
}

function stateName(code: string): string {
  const key = `commerce:states.${code}`;
  return hasMailText(key) ? mailT(key) : code;
}

function simTypeFacts(order: OrderView): Fact[] {
  return [
    { label: mailT("labels.folio"), value: order.folio, mono: true },
    {
      label: mailT("labels.simType"),
      value: mailT(`commerce:confirmation.simTypes.${order.simType}`),
    },
  ];
}

function deliveryBlock(order: OrderView): Block {
  const { delivery } = order;
  if (!delivery) return { kind: "paragraph", text: mailT("order.esimNoAddress") };
  const interior = delivery.interiorNumber
    ? `, ${mailT("commerce:confirmation.interior", { number: delivery.interiorNumber })}`
    : "";
  return {
    kind: "address",
    heading: mailT("labels.deliveryAddress"),
    lines: [
      order.customerName,
      `${delivery.street} ${delivery.exteriorNumber}${interior}`,
      `${delivery.neighborhood}, ${mailT("commerce:confirmation.postalCode", { code: delivery.postalCode })}`,
      `${delivery.municipality}, ${stateName(delivery.state)}`,
    ],
  };
}

function findOrderButton(context: MailContext, folio: string): Block {
  return {
    kind: "button",
    lead: mailT("order.findAgain"),
    label: mailT("order.findAgainButton"),
    href: orderLookupUrl(context.origin, folio),
  };
}

function paidWithText(paidWith: PaidWith | null): string | null {
  if (!paidWith) return null;
  if (paidWith.method === "cash") return mailT("order.paidWithCash");
  if (paidWith.method === "spei") return mailT("order.paidWithSpei");
  if (!paidWith.cardLast4) return null;
  return mailT("order.paidWithCard", {
    brand: mailT(`commerce:payment.brands.${paidWith.cardBrand ?? "other"}`),
    last4: paidWith.cardLast4,
  });
}

const deliveryDays = {
  cityMin: PHYSICAL_SIM_DELIVERY.cities.minDays,
  cityMax: PHYSICAL_SIM_DELIVERY.cities.maxDays,
  elsewhereMax: PHYSICAL_SIM_DELIVERY.elsewhere.maxDays,
};

function activationStep(): string {
  return mailT("commerce:confirmation.nextSteps.activate", {
    minutes: LINE_ACTIVATION.usualMinutes,
    hours: LINE_ACTIVATION.maxHours,
  });
}

function paragraph(text: string, tone?: "muted" | "notice"): Block {
  return tone ? { kind: "paragraph", text, tone } : { kind: "paragraph", text };
}

function compose(
  subject: string,
  name: string | null,
  blocks: Block[],
  context: MailContext,
  attachments?: MailAttachment[],
): RenderedMail {
  const { html, text } = renderDocument({
    subject,
    origin: context.origin,
    name: name || null,
    blocks,
    support: context.support,
  });
  return attachments?.length ? { subject, text, html, attachments } : { subject, text, html };
}

/** The width and height a PNG declares in its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

// ---------------------------------------------------------------------------------------------
// The e-mails

async function orderReceived(
  { order }: MailModels["order_received"],
  context: MailContext,
): Promise<RenderedMail> {
  const paid = order.status === "paid";
  return compose(
    mailT("orderReceived.subject", { folio: order.folio }),
    firstName(order.customerName),
    [
      { kind: "heading", text: mailT("orderReceived.heading") },
      paragraph(
        mailT(paid ? "orderReceived.paidLead" : "orderReceived.pendingLead", {
          folio: order.folio,
        }),
      ),
      ...(paid ? [] : [paragraph(mailT("orderReceived.voucherNote"))]),
      { kind: "facts", rows: simTypeFacts(order) },
      orderLines(order, mailT(paid ? "labels.totalPaid" : "labels.totalDue")),
      deliveryBlock(order),
      findOrderButton(context, order.folio),
    ],
    context,
  );
}

async function paymentVoucher(
  model: MailModels["payment_voucher"],
  context: MailContext,
): Promise<RenderedMail> {
  const { instructions, subject } = model;
  const cash = instructions.method === "cash";
  const expires = formatDateTime(instructions.expiresAt);
  const facts: Fact[] = [
    { label: mailT("commerce:payment.instructions.amount"), value: formatTotal(model.amount) },
  ];
  if (instructions.method === "spei") {
    facts.push(
      {
        label: mailT("commerce:payment.instructions.clabe"),
        value: formatClabe(instructions.clabe),
        mono: true,
      },
      { label: mailT("commerce:payment.instructions.bank"), value: instructions.bank },
      {
        label: mailT("commerce:payment.instructions.beneficiary"),
        value: instructions.beneficiary,
      },
    );
  }
  facts.push(
    {
      label: mailT("commerce:payment.instructions.reference"),
      value: instructions.reference,
      mono: true,
    },
    { label: mailT("commerce:payment.instructions.expires"), value: expires },
    { label: mailT("labels.folio"), value: subject.folio, mono: true },
  );
  const blocks: Block[] = [
    {
      kind: "heading",
      text: mailT(
        cash
          ? "commerce:payment.instructions.cashHeading"
          : "commerce:payment.instructions.speiHeading",
      ),
    },
    paragraph(
      subject.kind === "order"
        ? mailT("voucher.lead.order", { folio: subject.folio, expires })
        : mailT("voucher.lead.topup", {
            folio: subject.folio,
            line: maskPhoneNumber(subject.phoneNumber),
            expires,
          }),
    ),
    paragraph(
      mailT(
        cash
          ? "commerce:payment.instructions.cashIntro"
          : "commerce:payment.instructions.speiIntro",
      ),
    ),
  ];
  const attachments: MailAttachment[] = [];
  if (cash) {
    // The cashier scans the barcode from the phone's screen: a PNG, since mail clients show
    // neither SVG nor data URLs reliably. Drawn at twice the size it is shown, for sharp screens.
    const png = await bwipjs.toBuffer({
      bcid: "code128",
      text: instructions.reference,
      scale: 4,
      height: 14,
      paddingwidth: 10,
      paddingheight: 4,
      backgroundcolor: "FFFFFF",
    });
    const size = pngSize(png);
    const cid = `ficha.${subject.folio}@conectamovil.mx`;
    attachments.push({
      filename: `ficha-${subject.folio}.png`,
      contentType: "image/png",
      content: png,
      cid,
    });
    blocks.push({
      kind: "image",
      cid,
      alt: mailT("commerce:payment.instructions.barcodeAlt", {
        reference: instructions.reference,
      }),
      width: Math.round(size.width / 2),
      height: Math.round(size.height / 2),
      text: mailT("voucher.barcodeText"),
    });
  }
  blocks.push(
    { kind: "facts", rows: facts },
    paragraph(
      mailT(`commerce:payment.instructions.expiryNote.${instructions.method}.${subject.kind}`),
      "notice",
    ),
  );
  // The provider's own page, when it gave one that is a web address (nothing else is a link).
  if (instructions.hostedUrl && isWebUrl(instructions.hostedUrl)) {
    blocks.push({
      kind: "button",
      lead: mailT(`commerce:payment.instructions.hostedLink.${instructions.method}`),
      label: mailT(`commerce:payment.instructions.hostedLink.${instructions.method}`),
      href: instructions.hostedUrl,
    });
  }
  blocks.push(
    subject.kind === "order"
      ? {
          kind: "button",
          lead: mailT("voucher.orderLink"),
          label: mailT("order.findAgainButton"),
          href: orderLookupUrl(context.origin, subject.folio),
        }
      : {
          kind: "button",
          lead: mailT("voucher.topupLink"),
          label: mailT("voucher.topupLinkButton"),
          href: topupReceiptUrl(context.origin, subject.id),
        },
  );
  return compose(
    mailT(`voucher.subject.${subject.kind}.${instructions.method}`, { folio: subject.folio }),
    subject.kind === "order" ? firstName(subject.customerName) : null,
    blocks,
    context,
    attachments,
  );
}

/** The numbers a paid order keeps: each request's folio (its own e-mail follows), or why not. */
function keptNumbers(portIns: NonNullable<MailModels["order_paid"]["portIns"]>): Block[] {
  if (portIns.length === 0) return [];
  return [
    { kind: "heading", level: 2, text: mailT("commerce:confirmation.keepNumber.heading") },
    {
      kind: "list",
      items: portIns.map((portIn) =>
        portIn.folio
          ? mailT("orderPaid.keepNumberFiled", {
              line: maskPhoneNumber(portIn.phoneNumber),
              folio: portIn.folio,
            })
          : mailT("orderPaid.keepNumberInProcess", { line: maskPhoneNumber(portIn.phoneNumber) }),
      ),
    },
  ];
}

/** The holder shows their identification from the order's page (decision 0139), within the wait. */
function holderProofStep(): string {
  return mailT("orderPaid.holderProof", { hours: REGISTRATION_GIVE_UP_MS / 3_600_000 });
}

async function orderPaid(
  { order, paidWith, portIns = [] }: MailModels["order_paid"],
  context: MailContext,
): Promise<RenderedMail> {
  const paidText = paidWithText(paidWith);
  const steps =
    order.simType === "esim"
      ? [mailT("orderPaid.esimNotice", { minutes: ESIM_DELIVERY.emailWithinMinutes })]
      : [
          mailT("commerce:confirmation.nextSteps.deliveryPhysical", deliveryDays),
          mailT("orderPaid.shippingNotice"),
        ];
  return compose(
    mailT("orderPaid.subject", { folio: order.folio }),
    firstName(order.customerName),
    [
      { kind: "heading", text: mailT("orderPaid.heading") },
      paragraph(mailT("orderPaid.lead", { folio: order.folio })),
      { kind: "facts", rows: simTypeFacts(order) },
      orderLines(order, mailT("labels.totalPaid")),
      ...(paidText ? [paragraph(paidText, "muted")] : []),
      ...(order.delivery ? [deliveryBlock(order)] : []),
      ...keptNumbers(portIns),
      { kind: "heading", level: 2, text: mailT("commerce:confirmation.nextStepsHeading") },
      { kind: "list", items: [...steps, activationStep(), holderProofStep()] },
      findOrderButton(context, order.folio),
      invoicingButton(context, { kind: "order", ref: "", folio: order.folio }),
    ],
    context,
  );
}

/**
 * A paid eSIM order's e-mail: a one-time link to the codes, never the codes themselves. A mailbox
 * keeps, forwards and scans what it holds for years, and a code must not outlive its install
 * (decision 0082).
 */
async function esimActivation(
  { order, count, link }: MailModels["esim_activation"],
  context: MailContext,
): Promise<RenderedMail> {
  return compose(
    mailT("esimActivation.subject", { count, folio: order.folio }),
    firstName(order.customerName),
    [
      { kind: "heading", text: mailT("commerce:confirmation.esim.heading") },
      paragraph(mailT("esimActivation.lead", { count, folio: order.folio })),
      {
        kind: "button",
        lead: mailT("esimActivation.linkLead", { count }),
        label: mailT("esimActivation.linkButton", { count }),
        href: orderLinkUrl(context.origin, link.token),
      },
      paragraph(mailT("orderLink.once", { expires: formatDateTime(link.expiresAt) }), "muted"),
      paragraph(mailT("esimActivation.otherScreen"), "muted"),
      paragraph(activationStep()),
      paragraph(mailT("esimActivation.keepPrivate"), "notice"),
      paragraph(mailT("orderLink.expired")),
    ],
    context,
  );
}

/** The link asked for at /pedido: it opens the order once, in the browser that follows it. */
async function orderLink(
  { order, link }: MailModels["order_link"],
  context: MailContext,
): Promise<RenderedMail> {
  return compose(
    mailT("orderLink.subject", { folio: order.folio }),
    firstName(order.customerName),
    [
      { kind: "heading", text: mailT("orderLink.heading") },
      paragraph(mailT("orderLink.lead", { folio: order.folio })),
      {
        kind: "button",
        lead: mailT("orderLink.buttonLead"),
        label: mailT("orderLink.button"),
        href: orderLinkUrl(context.origin, link.token),
      },
      paragraph(mailT("orderLink.once", { expires: formatDateTime(link.expiresAt) }), "muted"),
      paragraph(mailT("orderLink.notYou"), "muted"),
    ],
    context,
  );
}

async function orderShipped(
  { order, carrier, trackingNumber, shippedAt }: MailModels["order_shipped"],
  context: MailContext,
): Promise<RenderedMail> {
  return compose(
    mailT("orderShipped.subject", { folio: order.folio }),
    firstName(order.customerName),
    [
      { kind: "heading", text: mailT("orderShipped.heading") },
      paragraph(mailT("orderShipped.lead", { folio: order.folio })),
      {
        kind: "facts",
        rows: [
          { label: mailT("orderShipped.carrier"), value: carrier },
          { label: mailT("orderShipped.trackingNumber"), value: trackingNumber, mono: true },
          { label: mailT("orderShipped.shippedAt"), value: formatDate(shippedAt) },
          { label: mailT("labels.folio"), value: order.folio, mono: true },
        ],
      },
      paragraph(mailT("orderShipped.trackingHint")),
      deliveryBlock(order),
      {
        kind: "list",
        items: [
          mailT("commerce:confirmation.nextSteps.deliveryPhysical", deliveryDays),
          mailT("orderShipped.stalled", { count: PHYSICAL_SIM_DELIVERY.stalledDays }),
          mailT("orderShipped.activate", { url: `${context.origin}${SIM_ACTIVATION_PATH}` }),
          activationStep(),
        ],
      },
      findOrderButton(context, order.folio),
    ],
    context,
  );
}

/** The line's vigencia once the top-up reached it, or where it stands, in the receipt page's words. */
function topupApplicationBlocks(
  application: MailModels["topup_receipt"]["application"],
  folio: string,
): Block[] {
  switch (application.state) {
    case "applied":
      return application.validUntil
        ? [paragraph(mailT("topupReceipt.validUntil", { date: application.validUntil }))]
        : [];
    case "pending":
      return [paragraph(mailT("topupReceipt.pending"))];
    case "refused":
      return [
        paragraph(
          `${mailT("topup:receipt.application.refused")}. ${mailT("topup:receipt.application.refusedLead", { folio })}`,
        ),
      ];
    case "none":
      return [];
  }
}

async function topupReceipt(
  model: MailModels["topup_receipt"],
  context: MailContext,
): Promise<RenderedMail> {
  const offer = findTopupAmount(model.amount);
  const facts: Fact[] = [
    { label: mailT("labels.folio"), value: model.folio, mono: true },
    { label: mailT("labels.line"), value: maskPhoneNumber(model.phoneNumber) },
    { label: mailT("labels.amount"), value: formatTotal(model.amount) },
    { label: mailT("labels.date"), value: formatDateTime(model.paidAt) },
  ];
  if (offer) {
    const data = formatData(offer.dataMb);
    facts.push({
      label: mailT("topupReceipt.benefits"),
      value: [
        mailT("topupReceipt.validity", { count: offer.validityDays }),
        mailT("topupReceipt.data", { value: data.value, unit: data.unit }),
        ...(offer.unlimitedSocial ? [mailT("topupReceipt.unlimitedSocial")] : []),
      ].join(" · "),
    });
  }
  const paidText = paidWithText(model.paidWith);
  return compose(
    mailT("topupReceipt.subject", { folio: model.folio }),
    null,
    [
      { kind: "heading", text: mailT("topup:receipt.heading") },
      paragraph(mailT("topup:receipt.paidLead")),
      { kind: "facts", rows: facts },
      ...topupApplicationBlocks(model.application, model.folio),
      ...(paidText ? [paragraph(paidText, "muted")] : []),
      ...(model.automatic
        ? [
            paragraph(
              mailT("topupReceipt.automatic", {
                url: `${context.origin}${model.automatic.settingsPath}`,
              }),
            ),
          ]
        : []),
      {
        kind: "button",
        lead: mailT("topupReceipt.receiptLink"),
        label: mailT("topupReceipt.receiptButton"),
        href: topupReceiptUrl(context.origin, model.id),
      },
      invoicingButton(context, { kind: "topup", ref: model.id, folio: model.folio }),
    ],
    context,
  );
}

function portabilityStatusText(change: PortabilityChange | { status: "received" }): string {
  switch (change.status) {
    case "received":
      return mailT("portability.status.received");
    case "in_progress":
      return mailT("portability.status.in_progress", { date: formatDay(change.scheduledFor) });
    case "completed":
      return mailT("portability.status.completed");
    case "rejected":
      return change.reason
        ? mailT("portability.status.rejectedWithReason", { reason: change.reason })
        : mailT("portability.status.rejected");
  }
}

function portabilityLookupButton(context: MailContext): Block {
  return {
    kind: "button",
    lead: mailT("portability.lookupHint"),
    label: mailT("portability.lookupButton"),
    href: `${context.origin}${PORTABILITY_LOOKUP_PATH}`,
  };
}

async function portabilityReceived(
  model: MailModels["portability_received"],
  context: MailContext,
): Promise<RenderedMail> {
  const line = maskPhoneNumber(model.phoneNumber);
  return compose(
    mailT("portabilityReceived.subject", { folio: model.folio }),
    firstName(model.fullName),
    [
      { kind: "heading", text: mailT("portability:result.heading") },
      paragraph(mailT("portabilityReceived.lead", { line })),
      {
        kind: "facts",
        rows: [
          { label: mailT("labels.folio"), value: model.folio, mono: true },
          { label: mailT("labels.line"), value: line },
          {
            label: mailT("portability.carrier"),
            value: carrierLabel(model.currentCarrier, mailT("portability.otherCarrier")),
          },
          { label: mailT("portability.requestedAt"), value: formatDateTime(model.createdAt) },
          { label: mailT("labels.status"), value: portabilityStatusText({ status: "received" }) },
        ],
      },
      { kind: "heading", level: 2, text: mailT("portability:result.nextSteps") },
      {
        kind: "list",
        items: [
          mailT("portability:result.nextStep1"),
          mailT("portabilityReceived.nextStep", { hours: PORTABILITY_MAX_HOURS }),
          mailT("portability:result.nextStep3"),
        ],
      },
      portabilityLookupButton(context),
    ],
    context,
  );
}

async function portabilityStatus(
  model: MailModels["portability_status"],
  context: MailContext,
): Promise<RenderedMail> {
  const { change } = model;
  const line = maskPhoneNumber(model.phoneNumber);
  const date = change.status === "in_progress" ? formatDay(change.scheduledFor) : "";
  const values = { folio: model.folio, line, date };
  const next: Block[] =
    change.status === "in_progress"
      ? [paragraph(mailT("portability:steps.activate")), portabilityLookupButton(context)]
      : change.status === "completed"
        ? [paragraph(mailT("portabilityStatus.completedNext")), paragraph(activationStep())]
        : [
            paragraph(mailT("portabilityStatus.rejectedNext")),
            {
              kind: "button",
              lead: mailT("portability:form.heading"),
              label: mailT("portabilityStatus.newRequestButton"),
              href: `${context.origin}${PORTABILITY_FORM_PATH}`,
            },
          ];
  return compose(
    mailT(`portabilityStatus.subject.${change.status}`, values),
    firstName(model.fullName),
    [
      { kind: "heading", text: mailT(`portabilityStatus.heading.${change.status}`) },
      paragraph(mailT(`portabilityStatus.lead.${change.status}`, values)),
      {
        kind: "facts",
        rows: [
          { label: mailT("labels.folio"), value: model.folio, mono: true },
          { label: mailT("labels.line"), value: line },
          { label: mailT("labels.status"), value: portabilityStatusText(change) },
        ],
      },
      ...next,
    ],
    context,
  );
}

function dataText(megabytes: number): string {
  const data = formatData(megabytes);
  return `${data.value} ${data.unit}`;
}

async function lineRunningOut(
  model: MailModels["line_running_out"],
  context: MailContext,
): Promise<RenderedMail> {
  const line = maskPhoneNumber(model.phoneNumber);
  const facts: Fact[] = [
    { label: mailT("labels.line"), value: line },
    { label: mailT("lineRunningOut.package"), value: model.packageName },
  ];
  if (model.data) {
    facts.push({
      label: mailT("lineRunningOut.dataLeft"),
      value: mailT("lineRunningOut.dataLeftValue", {
        remaining: dataText(model.data.remainingMb),
        total: dataText(model.data.totalMb),
      }),
    });
  }
  facts.push({ label: mailT("lineRunningOut.validUntil"), value: formatDateTime(model.endsAt) });
  return compose(
    mailT(`lineRunningOut.subject.${model.reason}`, { line }),
    null,
    [
      { kind: "heading", text: mailT(`lineRunningOut.heading.${model.reason}`) },
      paragraph(
        model.reason === "data"
          ? mailT("lineRunningOut.lead.data", { line })
          : mailT("lineRunningOut.lead.ending", { line, count: model.daysLeft }),
      ),
      { kind: "facts", rows: facts },
      {
        kind: "button",
        lead: mailT("lineRunningOut.buttonLead"),
        label: mailT("lineRunningOut.button"),
        href: `${context.origin}${LINES_PATH}`,
      },
      paragraph(mailT("lineRunningOut.once"), "muted"),
    ],
    context,
  );
}

async function lineRegistered(
  model: MailModels["line_registered"],
  context: MailContext,
): Promise<RenderedMail> {
  const line = maskPhoneNumber(model.phoneNumber);
  return compose(
    mailT("lineRegistered.subject", { folio: model.folio }),
    firstName(model.holderName),
    [
      { kind: "heading", text: mailT("lineRegistered.heading") },
      paragraph(mailT("lineRegistered.lead", { line })),
      {
        kind: "facts",
        rows: [
          { label: mailT("labels.folio"), value: model.folio, mono: true },
          {
            label: mailT("lineRegistered.registeredAt"),
            value: formatDateTime(model.registeredAt),
          },
          { label: mailT("labels.line"), value: line },
          { label: mailT("lineRegistered.holder"), value: model.holderName },
          { label: mailT("lineRegistered.holderKey"), value: model.holderKeyMasked, mono: true },
        ],
      },
      paragraph(mailT("lineRegistered.keep"), "muted"),
    ],
    context,
  );
}

/** A line registered to a person who already had lines: to their contacts (decision 0136). */
async function registrationNotice(
  model: MailModels["registration_notice"],
  context: MailContext,
): Promise<RenderedMail> {
  const line = maskPhoneNumber(model.phoneNumber);
  return compose(
    mailT("registrationNotice.subject"),
    null,
    [
      { kind: "heading", text: mailT("registrationNotice.heading") },
      paragraph(
        mailT("registrationNotice.lead", { line, date: formatDateTime(model.registeredAt) }),
      ),
      {
        kind: "button",
        lead: mailT("registrationNotice.buttonLead"),
        label: mailT("registrationNotice.button"),
        href: `${context.origin}${model.disputePath}`,
      },
      paragraph(mailT("registrationNotice.ifYou"), "muted"),
    ],
    context,
  );
}

// ---------------------------------------------------------------------------------------------
// Automatic top-ups (decision 0120)

function cardText(card: AutoTopupMailView["card"]): string {
  if (!card) return mailT("autoTopup.noCard");
  return mailT("autoTopup.card", {
    brand: mailT(`commerce:payment.brands.${card.brand}`),
    last4: card.last4,
  });
}

function autoTopupFacts(view: AutoTopupMailView): Fact[] {
  return [
    { label: mailT("labels.line"), value: maskPhoneNumber(view.phoneNumber) },
    { label: mailT("labels.amount"), value: formatTotal(view.amount) },
    { label: mailT("autoTopup.cardLabel"), value: cardText(view.card) },
    {
      label: mailT("autoTopup.whenLabel"),
      value:
        view.trigger === "expiry"
          ? mailT("autoTopup.when.expiry")
          : mailT("autoTopup.when.lowData", { data: dataText(view.thresholdMb ?? 0) }),
    },
    {
      label: mailT("autoTopup.capLabel"),
      value: mailT("autoTopup.capValue", {
        count: view.monthlyMax,
        total: formatTotal(view.amount * view.monthlyMax),
      }),
    },
  ];
}

function settingsButton(view: AutoTopupMailView, context: MailContext): Block {
  return {
    kind: "button",
    lead: mailT("autoTopup.settingsLead"),
    label: mailT("autoTopup.settingsButton"),
    href: `${context.origin}${view.settingsPath}`,
  };
}

async function autoTopupNotice(
  model: MailModels["auto_topup_notice"],
  context: MailContext,
): Promise<RenderedMail> {
  const view = model.autoTopup;
  const line = maskPhoneNumber(view.phoneNumber);
  const values = {
    line,
    amount: formatTotal(view.amount),
    card: cardText(view.card),
    date: model.endsAt ? formatDateTime(model.endsAt) : "",
    chargeAt: formatDateTime(model.chargeAt),
    data: dataText(view.thresholdMb ?? 0),
  };
  return compose(
    mailT(`autoTopup.notice.subject.${model.reason}`, values),
    null,
    [
      { kind: "heading", text: mailT(`autoTopup.notice.heading.${model.reason}`) },
      paragraph(mailT(`autoTopup.notice.lead.${model.reason}`, values)),
      { kind: "facts", rows: autoTopupFacts(view) },
      settingsButton(view, context),
      paragraph(mailT(`autoTopup.notice.after.${model.reason}`), "muted"),
    ],
    context,
  );
}

async function autoTopupDeclined(
  model: MailModels["auto_topup_declined"],
  context: MailContext,
): Promise<RenderedMail> {
  const view = model.autoTopup;
  const line = maskPhoneNumber(view.phoneNumber);
  const reasonKey = `commerce:payment.declineReasons.${model.declineReason}`;
  const reason = mailT(
    hasMailText(reasonKey) ? reasonKey : "commerce:payment.declineReasons.card_declined",
  );
  const state = model.stopped ? "stopped" : "retrying";
  return compose(
    mailT(`autoTopup.declined.subject.${state}`, { line }),
    null,
    [
      { kind: "heading", text: mailT(`autoTopup.declined.heading.${state}`) },
      paragraph(
        mailT("autoTopup.declined.lead", {
          amount: formatTotal(view.amount),
          card: cardText(view.card),
          line,
          reason,
        }),
      ),
      paragraph(
        model.stopped
          ? mailT("autoTopup.declined.stopped")
          : mailT("autoTopup.declined.retry", { date: formatDateTime(model.retryAt ?? "") }),
      ),
      { kind: "facts", rows: autoTopupFacts(view) },
      ...(model.topupId
        ? [
            {
              kind: "button" as const,
              lead: mailT("autoTopup.declined.payLead"),
              label: mailT("autoTopup.declined.payButton"),
              href: topupReceiptUrl(context.origin, model.topupId),
            },
          ]
        : []),
      settingsButton(view, context),
    ],
    context,
  );
}

async function autoTopupActionRequired(
  model: MailModels["auto_topup_action_required"],
  context: MailContext,
): Promise<RenderedMail> {
  const view = model.autoTopup;
  const line = maskPhoneNumber(view.phoneNumber);
  return compose(
    mailT("autoTopup.actionRequired.subject", { line }),
    null,
    [
      { kind: "heading", text: mailT("autoTopup.actionRequired.heading") },
      paragraph(
        mailT("autoTopup.actionRequired.lead", {
          amount: formatTotal(view.amount),
          card: cardText(view.card),
          line,
        }),
      ),
      {
        kind: "button",
        lead: mailT("autoTopup.actionRequired.payLead"),
        label: mailT("autoTopup.actionRequired.payButton"),
        href: topupReceiptUrl(context.origin, model.topupId),
      },
      paragraph(mailT("autoTopup.actionRequired.after"), "muted"),
    ],
    context,
  );
}

async function autoTopupCap(
  model: MailModels["auto_topup_cap"],
  context: MailContext,
): Promise<RenderedMail> {
  const view = model.autoTopup;
  const line = maskPhoneNumber(view.phoneNumber);
  return compose(
    mailT("autoTopup.cap.subject", { line }),
    null,
    [
      { kind: "heading", text: mailT("autoTopup.cap.heading") },
      paragraph(mailT("autoTopup.cap.lead", { line, count: model.chargedThisMonth })),
      { kind: "facts", rows: autoTopupFacts(view) },
      settingsButton(view, context),
    ],
    context,
  );
}

/** A CFDI issued: its XML and PDF attached (files, not inline), and where to see it again. */
async function invoiceIssued(
  model: MailModels["invoice_issued"],
  context: MailContext,
): Promise<RenderedMail> {
  const base = `factura-${model.folio}`;
  return compose(
    mailT("invoiceIssued.subject", { folio: model.folio, purchase: model.purchase.folio }),
    null,
    [
      { kind: "heading", text: mailT("invoiceIssued.heading") },
      paragraph(mailT("invoiceIssued.lead", { purchase: model.purchase.folio })),
      ...(model.sandbox ? [paragraph(mailT("invoiceIssued.sandbox"), "notice" as const)] : []),
      {
        kind: "facts",
        rows: [
          { label: mailT("invoiceIssued.folio"), value: model.folio, mono: true },
          { label: mailT("invoiceIssued.uuid"), value: model.uuid, mono: true },
          { label: mailT("invoiceIssued.receiver"), value: model.receiverName },
          { label: mailT("invoiceIssued.rfc"), value: model.receiverRfcMasked, mono: true },
          { label: mailT("invoiceIssued.total"), value: formatTotal(Number(model.total)) },
          { label: mailT("invoiceIssued.issuedAt"), value: formatDateTime(model.issuedAt) },
        ],
      },
      paragraph(mailT("invoiceIssued.attached", { xml: `${base}.xml`, pdf: `${base}.pdf` })),
      {
        kind: "button",
        lead: mailT("invoiceIssued.pageLead"),
        label: mailT("invoiceIssued.pageButton"),
        href: invoicingUrl(context.origin, model.purchase),
      },
    ],
    context,
    [
      {
        filename: `${base}.xml`,
        contentType: "application/xml",
        content: Buffer.from(model.xml, "utf8"),
      },
      { filename: `${base}.pdf`, contentType: "application/pdf", content: model.pdf },
    ],
  );
}

export const mailTemplates: {
  [T in MailTemplate]: (model: MailModels[T], context: MailContext) => Promise<RenderedMail>;
} = {
  order_received: orderReceived,
  payment_voucher: paymentVoucher,
  order_paid: orderPaid,
  esim_activation: esimActivation,
  order_link: orderLink,
  order_shipped: orderShipped,
  topup_receipt: topupReceipt,
  portability_received: portabilityReceived,
  portability_status: portabilityStatus,
  line_running_out: lineRunningOut,
  line_registered: lineRegistered,
  registration_notice: registrationNotice,
  auto_topup_notice: autoTopupNotice,
  auto_topup_declined: autoTopupDeclined,
  auto_topup_action_required: autoTopupActionRequired,
  auto_topup_cap: autoTopupCap,
  invoice_issued: invoiceIssued,
  account_security: accountSecurity,
};

export function renderMail<T extends MailTemplate>(
  template: T,
  model: MailModels[T],
  context: MailContext,
): Promise<RenderedMail> {
  return mailTemplates[template](model, context);
}
