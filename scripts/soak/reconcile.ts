/**
 * Reconciliation of a load run (`npm run soak`): what the simulated customers were told against
 * what the database holds afterwards. Pure — rows and ledger in, findings out — so the unit tests
 * feed it broken data and the soak feeds it the real thing.
 *
 * A finding is a correctness failure: a customer was told of something the store does not have
 * (exactly once), the store has something no customer asked for, money does not add up, or a
 * payment — by card, cash voucher or SPEI transfer — did not end as the customer was told. A
 * note is a row a customer created but whose answer never reached it (a request cut off at the
 * end of the run, or one that failed): worth reading, not by itself wrong.
 */
import { reorderKeys } from "~/checkout/reorder-key";
import type {
  OrderLinesTable,
  OrdersTable,
  PaymentStatus,
  PaymentsTable,
  PortabilityRequestsTable,
  SandboxCheckoutStatus,
  SandboxCheckoutsTable,
  TopupsTable,
} from "~/db/schema";
import type { PaymentMethod } from "~/payments/provider";
import {
  reconcileLines,
  type LineFindingKind,
  type LineLedger,
  type LineReconciliation,
  type LineRows,
  type LineSubject,
} from "./reconcile-lines";
import {
  isAutomaticTopupKey,
  reconcileAutoTopups,
  type AutoTopupFindingKind,
  type AutoTopupReconciliation,
  type AutoTopupRows,
  type ToldAutoTopup,
} from "./reconcile-auto-topups";
import {
  reconcileRegistrations,
  type RegistrationFindingKind,
  type RegistrationLedger,
  type RegistrationReconciliation,
  type RegistrationRows,
  type RegistrationSubject,
} from "./reconcile-registrations";
import {
  reconcileInvoices,
  type InvoiceFindingKind,
  type InvoiceLedger,
  type InvoiceRows,
} from "./reconcile-invoices";

/**
 * What a submission ended in, as the customer saw it: "told" (a redirect or page named the
 * result), "refused" (a 4xx that means nothing was stored) or "unknown" (no answer, a 5xx, or the
 * run stopped first: the row may or may not exist).
 */
export type SubmissionOutcome = "told" | "refused" | "unknown";

interface ToldSubmission {
  /** Who and which journey, for the report ("customer 12 journey 7 (checkout)"). */
  journey: string;
  idempotencyKey: string;
  outcome: SubmissionOutcome;
}

/** A cash voucher or a SPEI transfer as a page showed it to the customer. */
export interface ShownInstructions {
  method: "cash" | "spei";
  /** The voucher's number, or the transfer's numeric reference; null when the page showed none. */
  reference: string | null;
  /** The transfer's CLABE, digits only; null for a voucher, or when the page showed none. */
  clabe: string | null;
}

/**
 * What the customer did with a voucher or transfer: had the simulator pay it, had it expire,
 * or left it unpaid.
 */
export type VoucherOutcome = "paid" | "expired" | "unpaid";

/** What the pages of a paid journey (an order, a top-up) showed the customer. */
interface ToldPaidSubmission extends ToldSubmission {
  /** Folios the pages showed; null where a page that should show one did not. */
  folios: readonly (string | null)[];
  /** Totals shown on the form, voucher, payment and result pages (whole pesos). */
  amountsShown: readonly (number | null)[];
  /** The way of paying the customer chose on the form. */
  method: PaymentMethod;
  /** Every voucher or transfer the pages showed (again on each visit). */
  instructionsShown: readonly ShownInstructions[];
  /** null for a card, or when the journey ended before deciding. */
  voucherOutcome: VoucherOutcome | null;
  /**
   * The provider confirmed the payment, whatever the method: its page took the approved card,
   * or its simulator took the voucher or transfer as paid, and sent the customer back.
   */
  providerConfirmedPaid: boolean;
  /** The provider's simulator took the voucher or transfer as expired unpaid. */
  providerConfirmedExpired: boolean;
  /** The result page said "paid". */
  shownPaid: boolean;
  /** The result page said "cancelled". */
  shownCancelled: boolean;
  /** The status text the result page showed; null when the journey never got there. */
  shownStatus: string | null;
  /** Inconsistencies the journey itself saw (e.g. one form leading to two payment pages). */
  problems: readonly string[];
}

export interface ToldOrder extends ToldPaidSubmission {
  /** Order references the customer was sent to (`/confirmation?pedido=<ref>`). */
  refs: readonly string[];
}

export interface ToldTopup extends ToldPaidSubmission {
  /** Top-up ids of the receipts the customer was sent to (`/recarga/<id>`). */
  refs: readonly string[];
  phoneNumber: string;
  /** The amount the customer chose. */
  amount: number;
}

export interface ToldPortabilityRequest extends ToldSubmission {
  phoneNumber: string;
  folios: readonly (string | null)[];
}

export interface ClientLedger {
  orders: readonly ToldOrder[];
  topups: readonly ToldTopup[];
  portabilityRequests: readonly ToldPortabilityRequest[];
  /** Lines added with a code, eSIMs installed, usage the operator recorded (issue 26). */
  line: LineLedger;
  /** Lines registered to their holders at /registro-de-linea (issue 27). */
  registration: RegistrationLedger;
  /** Automatic top-ups customers switched on for their lines (issue 29). */
  autoTopups: readonly ToldAutoTopup[];
  /** Invoices asked for at /facturacion (scripts/soak/reconcile-invoices.ts). */
  invoicing: InvoiceLedger;
}

/** The columns the reconciliation reads (app/db/schema.ts). */
export interface StoredRows {
  orders: ReadonlyArray<Pick<OrdersTable, "id" | "folio" | "idempotency_key" | "status" | "total">>;
  orderLines: ReadonlyArray<
    Pick<OrderLinesTable, "order_id" | "position" | "unit_price" | "quantity" | "line_total">
  >;
  topups: ReadonlyArray<
    Pick<TopupsTable, "id" | "folio" | "idempotency_key" | "status" | "amount" | "phone_number">
  >;
  payments: ReadonlyArray<
    Pick<
      PaymentsTable,
      | "id"
      | "purpose"
      | "reference"
      | "amount"
      | "status"
      | "method"
      | "instructions"
      | "instruction_reference"
      | "expires_at"
    >
  >;
  sandboxCheckouts: ReadonlyArray<
    Pick<
      SandboxCheckoutsTable,
      "id" | "merchant_reference" | "amount" | "status" | "method" | "reference" | "clabe"
    >
  >;
  portabilityRequests: ReadonlyArray<
    Pick<PortabilityRequestsTable, "id" | "folio" | "idempotency_key" | "phone_number" | "status">
  >;
  /** The accounts' lines, the line jobs and the BSS simulator's records. */
  line: LineRows;
  /** The registrations of lines to their holders and the identity validations tried. */
  registration: RegistrationRows;
  /** The automatic top-ups, their charges and the provider's saved-card charges. */
  autoTopup: AutoTopupRows;
  /** The invoices, their e-mails and the approved payments they invoice. */
  invoicing: InvoiceRows;
}

export type FindingKind =
  /** A customer was told of it; the database does not have it. */
  | "missing"
  /** Two rows for one submission (or one folio), or two open portability requests for a number. */
  | "duplicate"
  /** A row no customer's submission created. */
  | "orphan"
  /** What a page said (folio, reference, amount, status, line) differs from the row. */
  | "told-mismatch"
  /** A submission the store refused (4xx) left a row behind. */
  | "refused-but-stored"
  /** A journey saw the store contradict itself while it ran. */
  | "journey-inconsistency"
  /** An order's total is not the sum of its lines, or a line's total is not price × quantity. */
  | "total-mismatch"
  /** A paid order or top-up without an approved payment. */
  | "payment-missing"
  /** A paid order or top-up with more than one approved payment, whatever their methods. */
  | "payment-duplicate"
  /** An order or top-up the customer was told was cancelled (or saw expire) has an approved payment. */
  | "cancelled-but-paid"
  /**
   * An expired voucher or transfer whose order or top-up is not cancelled; a cancelled one
   * without an expired voucher or transfer, or with a payment still open.
   */
  | "expiry-mismatch"
  /** A voucher or transfer reference on two payments (or two of the provider's checkouts). */
  | "reference-duplicate"
  /** A voucher or transfer shown to a customer is not a payment of that order or top-up. */
  | "reference-mismatch"
  /** A payment whose amount is not the amount of what it pays. */
  | "payment-amount"
  /** An approved payment whose order or top-up is missing or not paid; a payment of nothing. */
  | "payment-orphan"
  /** The payment provider's record disagrees with the store's payment. */
  | "provider-mismatch"
  | LineFindingKind
  | RegistrationFindingKind
  | AutoTopupFindingKind
  | InvoiceFindingKind;

export type Subject =
  | "order"
  | "top-up"
  | "portability request"
  | "payment"
  | "sandbox checkout"
  | LineSubject
  | RegistrationSubject
  | "automatic top-up"
  | "invoice";

export interface Finding {
  kind: FindingKind;
  subject: Subject;
  detail: string;
}

export interface Note {
  subject: Subject;
  detail: string;
}

export interface ReconciliationReport {
  findings: Finding[];
  notes: Note[];
  /** How much was compared, for the summary. */
  checked: {
    toldOrders: number;
    toldTopups: number;
    toldPortabilityRequests: number;
    orders: number;
    topups: number;
    portabilityRequests: number;
    payments: number;
    approvedPayments: number;
    /** Stored payments by method, then by status. */
    paymentsByMethod: Record<string, Record<string, number>>;
    /** Told orders placed again after their order was cancelled (see `resolveReorders`). */
    reorders: number;
    line: LineReconciliation["checked"];
    registration: RegistrationReconciliation["checked"];
    autoTopup: AutoTopupReconciliation["checked"];
    invoicing: Record<string, number>;
  };
}

/** Payment purposes the store registers (app/checkout/order-payments.server.ts, app/topup). */
export const ORDER_PAYMENT_PURPOSE = "order";
export const TOPUP_PAYMENT_PURPOSE = "topup";
const OPEN_PORTABILITY_STATUSES = new Set(["received", "in_progress"]);

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const present = <T>(values: readonly (T | null)[]): T[] =>
  values.filter((value): value is T => value !== null);
const distinct = <T>(values: readonly T[]): T[] => [...new Set(values)];
const journeysOf = (told: readonly ToldSubmission[]) =>
  distinct(told.map((entry) => entry.journey)).join("; ");

interface StoredSubmission {
  id: string;
  folio: string;
  idempotency_key: string;
}

/**
 * The checks every kind of submission shares: per idempotency key, what customers were told
 * against the rows with that key; then every row against the submissions that could have made
 * it; then folios, which must be unique. `compare` adds the kind's own field checks.
 */
function reconcileSubmissions<
  Told extends ToldSubmission & { folios: readonly (string | null)[] },
  Row extends StoredSubmission,
>(
  subject: Subject,
  told: readonly Told[],
  rows: readonly Row[],
  compare: (
    row: Row,
    told: readonly Told[],
    mismatch: (detail: string, kind?: FindingKind) => void,
  ) => void,
  findings: Finding[],
  notes: Note[],
) {
  const rowsByKey = groupBy(rows, (row) => row.idempotency_key);
  const toldByKey = groupBy(told, (entry) => entry.idempotencyKey);
  const add = (kind: FindingKind, detail: string) => findings.push({ kind, subject, detail });

  for (const [key, entries] of toldByKey) {
    const matching = rowsByKey.get(key) ?? [];
    const journeys = journeysOf(entries);
    const toldEntries = entries.filter((entry) => entry.outcome === "told");
    const refused = entries.filter((entry) => entry.outcome === "refused");
    if (matching.length > 1) {
      add(
        "duplicate",
        `key ${key} (${journeys}) has ${matching.length} rows: ${matching.map((row) => row.folio).join(", ")}`,
      );
    }
    if (refused.length > 0 && matching.length > 0) {
      add(
        "refused-but-stored",
        `${journeysOf(refused)} was refused, yet ${matching.map((row) => row.folio).join(", ")} has its key ${key}`,
      );
    }
    if (toldEntries.length > 0 && matching.length === 0) {
      const folios = distinct(present(toldEntries.flatMap((entry) => entry.folios)));
      add(
        "missing",
        `${journeysOf(toldEntries)} was told ${folios.length ? folios.join(", ") : "its submission was accepted"} (key ${key}), but no row has that key`,
      );
      continue;
    }
    if (matching.length !== 1) continue;
    const [row] = matching;
    const toldFolios = distinct(toldEntries.flatMap((entry) => entry.folios));
    for (const folio of toldFolios) {
      if (folio !== row.folio) {
        add(
          "told-mismatch",
          `${journeysOf(toldEntries)} was shown folio ${folio ?? "(none)"}, but its submission (key ${key}) is ${row.folio}`,
        );
      }
    }
    if (toldEntries.length > 0) {
      compare(row, toldEntries, (detail, kind = "told-mismatch") =>
        add(kind, `${row.folio} (${journeysOf(toldEntries)}): ${detail}`),
      );
    }
  }

  for (const row of rows) {
    const entries = toldByKey.get(row.idempotency_key);
    if (!entries) {
      add(
        "orphan",
        `${row.folio} (id ${row.id}) has key ${row.idempotency_key}, which no customer submitted`,
      );
    } else if (!entries.some((entry) => entry.outcome === "told" || entry.outcome === "refused")) {
      notes.push({
        subject,
        detail: `${row.folio} was created by ${journeysOf(entries)}, whose answer never reached the customer`,
      });
    }
  }

  for (const [folio, sameFolio] of groupBy(rows, (row) => row.folio)) {
    if (sameFolio.length > 1) {
      add(
        "duplicate",
        `folio ${folio} is on ${sameFolio.length} rows: ${sameFolio.map((row) => row.id).join(", ")}`,
      );
    }
  }
}

function journeyProblems(
  subject: Subject,
  told: ReadonlyArray<{ journey: string; problems: readonly string[] }>,
  findings: Finding[],
) {
  for (const entry of told) {
    for (const problem of entry.problems) {
      findings.push({
        kind: "journey-inconsistency",
        subject,
        detail: `${entry.journey}: ${problem}`,
      });
    }
  }
}

type StoredPayment = StoredRows["payments"][number];

/** The voucher or transfer stored with a payment (its `instructions` JSON), as a page shows it. */
function storedInstructions(
  payment: Pick<StoredPayment, "instructions">,
): ShownInstructions | null {
  if (!payment.instructions) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payment.instructions);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { method, reference, clabe } = parsed as Record<string, unknown>;
  if ((method !== "cash" && method !== "spei") || typeof reference !== "string") return null;
  return {
    method,
    reference,
    clabe: method === "spei" && typeof clabe === "string" ? clabe : null,
  };
}

const instructionsKey = (shown: ShownInstructions) =>
  `${shown.method}:${shown.clabe ?? ""}:${shown.reference ?? ""}`;
const describeInstructions = (shown: ShownInstructions) =>
  shown.method === "cash"
    ? `voucher ${shown.reference ?? "(none)"}`
    : `transfer ${shown.reference ?? "(none)"} to CLABE ${shown.clabe ?? "(none)"}`;
const targetKey = (purpose: string, id: string) => `${purpose}:${id}`;

/** The payments, found by what they pay and by the voucher or transfer they issued. */
interface PaymentIndex {
  byTarget: Map<string, StoredPayment[]>;
  byInstructions: Map<string, StoredPayment[]>;
}

function indexPayments(payments: readonly StoredPayment[]): PaymentIndex {
  const withInstructions = payments.flatMap((payment) => {
    const instructions = storedInstructions(payment);
    return instructions ? [{ payment, key: instructionsKey(instructions) }] : [];
  });
  return {
    byTarget: groupBy(payments, (payment) => targetKey(payment.purpose, payment.reference)),
    byInstructions: new Map(
      [...groupBy(withInstructions, (entry) => entry.key)].map(([key, entries]) => [
        key,
        entries.map((entry) => entry.payment),
      ]),
    ),
  };
}

/** What the pages said about amounts, payment, cancellation and vouchers, against the row. */
function comparePaidThing(
  row: { purpose: string; id: string; status: string; amountDue: number },
  told: ReadonlyArray<ToldPaidSubmission>,
  mismatch: (detail: string, kind?: FindingKind) => void,
  payments: PaymentIndex,
) {
  for (const amount of distinct(told.flatMap((entry) => entry.amountsShown))) {
    if (amount !== row.amountDue) {
      mismatch(`a page showed ${amount ?? "no amount"}, the row says ${row.amountDue}`);
    }
  }
  if (told.some((entry) => entry.shownPaid) && row.status !== "paid") {
    mismatch(`the customer was shown "paid", the row is ${row.status}`);
  }

  const own = payments.byTarget.get(targetKey(row.purpose, row.id)) ?? [];
  const approved = own.filter((payment) => payment.status === "approved");
  const confirmedPaid = told.filter((entry) => entry.providerConfirmedPaid);
  const paidButNotShown = confirmedPaid.find(
    (entry) => entry.shownStatus !== null && !entry.shownPaid,
  );
  if (paidButNotShown) {
    mismatch(
      `the provider confirmed the ${paidButNotShown.method} payment, the page then said "${paidButNotShown.shownStatus}"`,
    );
  }
  if (confirmedPaid.length > 0 && row.status !== "paid") {
    mismatch(`the provider confirmed the payment, the row is ${row.status}`);
  }
  for (const method of distinct(confirmedPaid.map((entry) => entry.method))) {
    if (approved.length > 0 && !approved.some((payment) => payment.method === method)) {
      mismatch(
        `paid by ${method}, the approved payment is by ${distinct(approved.map((payment) => payment.method)).join(", ")}`,
      );
    }
  }

  const toldCancelled = told.filter(
    (entry) => entry.shownCancelled || entry.providerConfirmedExpired,
  );
  if (toldCancelled.length > 0) {
    if (row.status !== "cancelled") {
      mismatch(
        `the customer was told it was cancelled (voucher expired), the row is ${row.status}`,
      );
    }
    if (approved.length > 0) {
      mismatch(
        `the customer was told it was cancelled, yet it has approved ${approved.map((payment) => `${payment.method} payment ${payment.id}`).join(", ")}`,
        "cancelled-but-paid",
      );
    }
  }

  const shown = new Map(
    told.flatMap((entry) => entry.instructionsShown).map((item) => [instructionsKey(item), item]),
  );
  for (const [key, item] of shown) {
    if (item.reference === null || (item.method === "spei" && item.clabe === null)) {
      mismatch(
        `a page showed the ${item.method} instructions without their reference`,
        "reference-mismatch",
      );
      continue;
    }
    const holders = payments.byInstructions.get(key) ?? [];
    if (
      !holders.some((payment) => payment.purpose === row.purpose && payment.reference === row.id)
    ) {
      mismatch(
        `the customer was shown ${describeInstructions(item)}, which is ${
          holders.length
            ? holders
                .map(
                  (payment) => `payment ${payment.id} of ${payment.purpose} ${payment.reference}`,
                )
                .join(", ")
            : "no payment's"
        }`,
        "reference-mismatch",
      );
    }
  }
}

function reconcileOrderLines(rows: StoredRows, findings: Finding[]) {
  const linesByOrder = groupBy(rows.orderLines, (line) => line.order_id);
  const orderIds = new Set(rows.orders.map((order) => order.id));
  const add = (kind: FindingKind, detail: string) =>
    findings.push({ kind, subject: "order", detail });
  for (const order of rows.orders) {
    const lines = linesByOrder.get(order.id) ?? [];
    if (lines.length === 0) {
      add("total-mismatch", `${order.folio} has no lines`);
      continue;
    }
    const sum = lines.reduce((total, line) => total + Number(line.line_total), 0);
    if (sum !== Number(order.total)) {
      add("total-mismatch", `${order.folio}: total ${order.total}, its lines add up to ${sum}`);
    }
    for (const line of lines) {
      if (Number(line.unit_price) * Number(line.quantity) !== Number(line.line_total)) {
        add(
          "total-mismatch",
          `${order.folio} line ${line.position}: ${line.quantity} × ${line.unit_price} is not ${line.line_total}`,
        );
      }
    }
    for (const [position, same] of groupBy(lines, (line) => line.position)) {
      if (same.length > 1)
        add("duplicate", `${order.folio} has ${same.length} lines at position ${position}`);
    }
  }
  for (const [orderId, lines] of linesByOrder) {
    if (!orderIds.has(orderId))
      add("orphan", `${lines.length} order line(s) of order ${orderId}, which does not exist`);
  }
}

/** The provider's checkout status that goes with each status of the store's payment. */
const CHECKOUT_STATUS_FOR: Record<PaymentStatus, SandboxCheckoutStatus> = {
  pending: "open",
  approved: "approved",
  declined: "declined",
  expired: "expired",
  // Closed at the provider before another way of paying was opened.
  replaced: "expired",
};

/** Values found on more than one item: value → the items. */
function sharedValues<T>(items: readonly T[], valueOf: (item: T) => string | null) {
  return [
    ...groupBy(
      items.filter((item) => valueOf(item) !== null),
      valueOf,
    ),
  ].filter(([, same]) => same.length > 1);
}

/**
 * Every paid thing has exactly one approved payment of its amount, whatever its method; no
 * approved payment pays nothing; an expired voucher or transfer, and only that, cancels what it
 * paid; no voucher or transfer reference is handed out twice; the provider's records agree.
 */
function reconcilePayments(rows: StoredRows, index: PaymentIndex, findings: Finding[]) {
  const payable = new Map<string, Map<string, { label: string; status: string; amount: number }>>([
    [
      ORDER_PAYMENT_PURPOSE,
      new Map(
        rows.orders.map((order) => [
          order.id,
          { label: `order ${order.folio}`, status: order.status, amount: Number(order.total) },
        ]),
      ),
    ],
    [
      TOPUP_PAYMENT_PURPOSE,
      new Map(
        rows.topups.map((topup) => [
          topup.id,
          { label: `top-up ${topup.folio}`, status: topup.status, amount: Number(topup.amount) },
        ]),
      ),
    ],
  ]);
  const add = (kind: FindingKind, detail: string) =>
    findings.push({ kind, subject: "payment", detail });

  for (const payment of rows.payments) {
    const target = payable.get(payment.purpose)?.get(payment.reference);
    if (!target) {
      add(
        "payment-orphan",
        `${payment.status} payment ${payment.id} pays ${payment.purpose} ${payment.reference}, which does not exist`,
      );
      continue;
    }
    if (Number(payment.amount) !== target.amount) {
      add(
        "payment-amount",
        `${payment.status} payment ${payment.id} of ${payment.amount} for ${target.label} of ${target.amount}`,
      );
    }
    if (payment.status === "approved" && target.status !== "paid") {
      add(
        "payment-orphan",
        `approved ${payment.method} payment ${payment.id}, but ${target.label} is ${target.status}`,
      );
    }
    if (
      payment.status === "expired" &&
      payment.instructions !== null &&
      target.status !== "cancelled"
    ) {
      add(
        "expiry-mismatch",
        `${payment.method} payment ${payment.id} expired unpaid, but ${target.label} is ${target.status}`,
      );
    }
    if (payment.status === "pending" && target.status === "cancelled") {
      add(
        "expiry-mismatch",
        `${payment.method} payment ${payment.id} is still open, but ${target.label} is cancelled`,
      );
    }
  }

  for (const [purpose, targets] of payable) {
    for (const [id, target] of targets) {
      const own = index.byTarget.get(targetKey(purpose, id)) ?? [];
      if (target.status === "paid") {
        const approved = own.filter((payment) => payment.status === "approved");
        if (approved.length === 0)
          add("payment-missing", `${target.label} is paid without an approved payment`);
        if (approved.length > 1) {
          add(
            "payment-duplicate",
            `${target.label} has ${approved.length} approved payments: ${approved.map((payment) => `${payment.id} (${payment.method})`).join(", ")}`,
          );
        }
      }
      if (
        target.status === "cancelled" &&
        !own.some((payment) => payment.status === "expired" && payment.instructions !== null)
      ) {
        add(
          "expiry-mismatch",
          `${target.label} is cancelled without an expired voucher or transfer`,
        );
      }
    }
  }

  for (const [reference, same] of sharedValues(
    rows.payments,
    (payment) => payment.instruction_reference,
  )) {
    add(
      "reference-duplicate",
      `${reference} was issued to ${same.length} payments: ${same.map((payment) => `${payment.id} (${payment.purpose} ${payment.reference})`).join(", ")}`,
    );
  }

  // The provider's side: each of its checkouts agrees with the store's payment.
  const subject: Subject = "sandbox checkout";
  const provider = (kind: FindingKind, detail: string) => findings.push({ kind, subject, detail });
  for (const column of ["reference", "clabe"] as const) {
    for (const [value, same] of sharedValues(
      rows.sandboxCheckouts,
      (checkout) => checkout[column],
    )) {
      provider(
        "reference-duplicate",
        `${column} ${value} is on ${same.length} checkouts: ${same.map((checkout) => checkout.id).join(", ")}`,
      );
    }
  }
  const paymentsById = new Map(rows.payments.map((payment) => [payment.id, payment]));
  for (const checkout of rows.sandboxCheckouts) {
    const payment = paymentsById.get(checkout.merchant_reference);
    if (!payment) {
      provider(
        "provider-mismatch",
        `${checkout.status} checkout ${checkout.id} for payment ${checkout.merchant_reference}, which does not exist`,
      );
      continue;
    }
    if (Number(checkout.amount) !== Number(payment.amount)) {
      provider(
        "provider-mismatch",
        `checkout ${checkout.id} of ${checkout.amount} for payment ${payment.id} of ${payment.amount}`,
      );
    }
    if (checkout.status !== CHECKOUT_STATUS_FOR[payment.status]) {
      provider(
        "provider-mismatch",
        `the provider has ${checkout.method} checkout ${checkout.id} ${checkout.status}, the store's payment ${payment.id} is ${payment.status}`,
      );
    }
    if (checkout.method !== payment.method) {
      provider(
        "provider-mismatch",
        `checkout ${checkout.id} is by ${checkout.method}, payment ${payment.id} by ${payment.method}`,
      );
    }
    const instructions = storedInstructions(payment);
    if (
      instructions &&
      (instructions.reference !== checkout.reference || instructions.clabe !== checkout.clabe)
    ) {
      provider(
        "provider-mismatch",
        `payment ${payment.id} shows ${describeInstructions(instructions)}, the provider issued ${describeInstructions({ method: instructions.method, reference: checkout.reference, clabe: checkout.clabe })}`,
      );
    }
  }
}

/**
 * Buying the same cart again after its order was cancelled (its voucher expired): the form
 * still carries the cancelled order's key, and the store places the new order under a key of
 * its own (app/routes/checkout.tsx), which no page shows. Such a submission is reconciled under
 * the key of the one order it was sent to, provided that order is no other submission's (no
 * other customer was sent to it under its own key). Sent to two orders, it is left as it is,
 * and the reconciliation reports what does not match.
 */
/** Orders of one cart cancelled in a row within one run: far fewer than this. */
const MAX_REORDER_CHAIN = 20;

function resolveReorders(
  told: readonly ToldOrder[],
  orders: StoredRows["orders"],
): { resolved: ToldOrder[]; reorders: number } {
  const byId = new Map(orders.map((order) => [order.id, order]));
  const byKey = new Map(orders.map((order) => [order.idempotency_key, order]));
  const sentToOwnOrder = new Set(
    told
      .filter((entry) => {
        const own = byKey.get(entry.idempotencyKey);
        return own !== undefined && entry.refs.includes(own.id);
      })
      .map((entry) => entry.idempotencyKey),
  );
  let reorders = 0;
  const resolved = told.map((entry) => {
    const formOrder = byKey.get(entry.idempotencyKey);
    const refs = distinct(entry.refs);
    if (formOrder?.status !== "cancelled" || refs.length !== 1) return entry;
    const sentTo = byId.get(refs[0]);
    if (!sentTo || sentTo.id === formOrder.id) return entry;
    // The store re-places the cart under a key derived from the cancelled one's: an order under
    // that key is this form's, even when the same browser's next form continued it under it.
    const derived = reorderKeys(entry.idempotencyKey, MAX_REORDER_CHAIN).includes(
      sentTo.idempotency_key,
    );
    if (!derived && sentToOwnOrder.has(sentTo.idempotency_key)) return entry;
    reorders += 1;
    return { ...entry, idempotencyKey: sentTo.idempotency_key };
  });
  return { resolved, reorders };
}

export function reconcile(ledger: ClientLedger, rows: StoredRows): ReconciliationReport {
  const findings: Finding[] = [];
  const notes: Note[] = [];
  const payments = indexPayments(rows.payments);

  journeyProblems("order", ledger.orders, findings);
  journeyProblems("top-up", ledger.topups, findings);

  const orderIds = new Set(rows.orders.map((order) => order.id));
  const { resolved: toldOrders, reorders } = resolveReorders(ledger.orders, rows.orders);
  reconcileSubmissions(
    "order",
    toldOrders,
    rows.orders,
    (row, told, mismatch) => {
      for (const ref of distinct(told.flatMap((entry) => entry.refs))) {
        // A reference that is no order at all is reported as missing below.
        if (ref !== row.id && orderIds.has(ref)) {
          mismatch(`the customer was sent to order ${ref}, another submission's order`);
        }
      }
      comparePaidThing(
        {
          purpose: ORDER_PAYMENT_PURPOSE,
          id: row.id,
          status: row.status,
          amountDue: Number(row.total),
        },
        told,
        mismatch,
        payments,
      );
    },
    findings,
    notes,
  );
  // A reference a customer was sent to must be an order, whatever key the journey recorded.
  for (const told of ledger.orders) {
    for (const ref of distinct(told.refs)) {
      if (!orderIds.has(ref)) {
        findings.push({
          kind: "missing",
          subject: "order",
          detail: `${told.journey} was sent to order ${ref}, which does not exist`,
        });
      }
    }
  }
  reconcileOrderLines(rows, findings);

  // The scheduler's top-ups are no customer's submission: reconciled with their charges below.
  reconcileSubmissions(
    "top-up",
    ledger.topups,
    rows.topups.filter((topup) => !isAutomaticTopupKey(topup.idempotency_key)),
    (row, told, mismatch) => {
      for (const entry of told) {
        if (entry.amount !== Number(row.amount))
          mismatch(`the customer chose ${entry.amount}, the row says ${row.amount}`);
        if (entry.phoneNumber !== row.phone_number)
          mismatch(`the customer topped up ${entry.phoneNumber}, the row says ${row.phone_number}`);
        for (const ref of distinct(entry.refs)) {
          if (ref !== row.id) mismatch(`the customer was sent to receipt ${ref}, not its own`);
        }
      }
      comparePaidThing(
        {
          purpose: TOPUP_PAYMENT_PURPOSE,
          id: row.id,
          status: row.status,
          amountDue: Number(row.amount),
        },
        told,
        mismatch,
        payments,
      );
    },
    findings,
    notes,
  );

  reconcileSubmissions(
    "portability request",
    ledger.portabilityRequests,
    rows.portabilityRequests,
    (row, told, mismatch) => {
      for (const entry of told) {
        if (entry.phoneNumber !== row.phone_number)
          mismatch(
            `the customer asked to port ${entry.phoneNumber}, the row says ${row.phone_number}`,
          );
      }
    },
    findings,
    notes,
  );
  const openByNumber = groupBy(
    rows.portabilityRequests.filter((request) => OPEN_PORTABILITY_STATUSES.has(request.status)),
    (request) => request.phone_number,
  );
  for (const [phoneNumber, open] of openByNumber) {
    if (open.length > 1) {
      findings.push({
        kind: "duplicate",
        subject: "portability request",
        detail: `${phoneNumber} has ${open.length} open requests: ${open.map((request) => request.folio).join(", ")}`,
      });
    }
  }

  reconcilePayments(rows, payments, findings);
  const line = reconcileLines({ ledger: ledger.line, rows: rows.line, topups: rows.topups });
  findings.push(...line.findings);
  notes.push(...line.notes);
  const registration = reconcileRegistrations({
    ledger: ledger.registration,
    rows: rows.registration,
  });
  findings.push(...registration.findings);
  const autoTopup = reconcileAutoTopups({
    ledger: ledger.autoTopups,
    rows: rows.autoTopup,
    topups: rows.topups,
    payments: rows.payments,
  });
  findings.push(...autoTopup.findings);
  const invoicing = reconcileInvoices({ ledger: ledger.invoicing, rows: rows.invoicing });
  findings.push(...invoicing.findings);

  const paymentsByMethod: Record<string, Record<string, number>> = {};
  for (const payment of rows.payments) {
    const byStatus = (paymentsByMethod[payment.method] ??= {});
    byStatus[payment.status] = (byStatus[payment.status] ?? 0) + 1;
  }

  return {
    findings,
    notes,
    checked: {
      toldOrders: ledger.orders.filter((entry) => entry.outcome === "told").length,
      toldTopups: ledger.topups.filter((entry) => entry.outcome === "told").length,
      toldPortabilityRequests: ledger.portabilityRequests.filter(
        (entry) => entry.outcome === "told",
      ).length,
      orders: rows.orders.length,
      topups: rows.topups.length,
      portabilityRequests: rows.portabilityRequests.length,
      payments: rows.payments.length,
      approvedPayments: rows.payments.filter((payment) => payment.status === "approved").length,
      paymentsByMethod,
      reorders,
      line: line.checked,
      registration: registration.checked,
      autoTopup: autoTopup.checked,
      invoicing: invoicing.checked,
    },
  };
}
