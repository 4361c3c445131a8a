import { reorderKey } from "~/checkout/reorder-key";
import { describe, expect, it } from "vitest";
import {
  reconcile,
  type ClientLedger,
  type FindingKind,
  type StoredRows,
  type ToldOrder,
  type ToldPortabilityRequest,
  type ToldTopup,
} from "./reconcile";

type StoredPayment = StoredRows["payments"][number];
type StoredCheckout = StoredRows["sandboxCheckouts"][number];

const EXPIRES = "2026-11-27T12:00:00.000Z";
const CASH_ORDER_REF = "93000000000017";
const CASH_TOPUP_REF = "93000000000025";
const SPEI_REF = "0000001";
const SPEI_CLABE = "646180000000000013";

/** A payment row as the store writes it: by card unless told otherwise. */
function payment(
  fields: Pick<StoredPayment, "id" | "purpose" | "reference" | "amount" | "status"> &
    Partial<StoredPayment>,
): StoredPayment {
  return {
    method: "card",
    instructions: null,
    instruction_reference: null,
    expires_at: null,
    ...fields,
  };
}

/** A payment with the cash voucher the sandbox issued for it. */
function cashPayment(
  fields: Pick<StoredPayment, "id" | "purpose" | "reference" | "amount" | "status">,
  reference: string,
): StoredPayment {
  return payment({
    ...fields,
    method: "cash",
    instructions: JSON.stringify({
      method: "cash",
      reference,
      expiresAt: EXPIRES,
      hostedUrl: null,
    }),
    instruction_reference: `cash:${reference}`,
    expires_at: EXPIRES,
  });
}

/** The sandbox's own record of a payment; by card unless told otherwise. */
function checkout(
  fields: Pick<StoredCheckout, "id" | "merchant_reference" | "amount" | "status"> &
    Partial<StoredCheckout>,
): StoredCheckout {
  return { method: "card", reference: null, clabe: null, ...fields };
}

/** What a journey was told before it learnt anything more: a card payment confirmed and shown paid. */
const paidByCard = {
  outcome: "told" as const,
  method: "card" as const,
  instructionsShown: [],
  voucherOutcome: null,
  providerConfirmedPaid: true,
  providerConfirmedExpired: false,
  shownPaid: true,
  shownCancelled: false,
  problems: [],
};

/**
 * A small consistent run: four orders — paid by card (two lines); paid with a cash voucher after
 * a card payment page was given up (submitted twice); a SPEI transfer that expired and cancelled
 * its order; the same cart then bought again, by card, as a new order under the store's own
 * key — a top-up paid by card and one whose cash voucher was left unpaid, a portability request
 * and one refused as a duplicate. Each test breaks one thing.
 */
function cleanRun(): { ledger: ClientLedger; rows: StoredRows } {
  const orders: ToldOrder[] = [
    {
      ...paidByCard,
      journey: "customer 1 journey 1 (checkout)",
      idempotencyKey: "key-order-1",
      refs: ["ref-order-1"],
      folios: ["PED-2026-000001"],
      amountsShown: [250, 250, 250],
      shownStatus: "Pagado",
    },
    {
      // A double submission: two answers, both naming the same order.
      ...paidByCard,
      journey: "customer 2 journey 4 (checkout)",
      idempotencyKey: "key-order-2",
      refs: ["ref-order-2", "ref-order-2", "ref-order-2"],
      folios: ["PED-2026-000002", "PED-2026-000002"],
      amountsShown: [100, 100, 100, 100, 100],
      method: "cash",
      instructionsShown: [{ method: "cash", reference: CASH_ORDER_REF, clabe: null }],
      voucherOutcome: "paid",
      shownStatus: "Pagado",
    },
    {
      ...paidByCard,
      journey: "customer 3 journey 2 (checkout)",
      idempotencyKey: "key-order-3",
      refs: ["ref-order-3", "ref-order-3"],
      folios: ["PED-2026-000003", "PED-2026-000003"],
      amountsShown: [300, 300, 300, 300, 300],
      method: "spei",
      instructionsShown: [{ method: "spei", reference: SPEI_REF, clabe: SPEI_CLABE }],
      voucherOutcome: "expired",
      providerConfirmedPaid: false,
      providerConfirmedExpired: true,
      shownPaid: false,
      shownCancelled: true,
      shownStatus: "Cancelado",
    },
    {
      // The same cart again: the form still carries the cancelled order's key.
      ...paidByCard,
      journey: "customer 3 journey 3 (checkout)",
      idempotencyKey: "key-order-3",
      refs: ["ref-order-4"],
      folios: ["PED-2026-000004"],
      amountsShown: [300, 300, 300],
      shownStatus: "Pagado",
    },
  ];
  const topups: ToldTopup[] = [
    {
      ...paidByCard,
      journey: "customer 3 journey 5 (topup)",
      idempotencyKey: "key-topup-1",
      phoneNumber: "5500003001",
      amount: 50,
      refs: ["id-topup-1", "id-topup-1"],
      folios: ["REC-2026-000001", "REC-2026-000001"],
      amountsShown: [50, 50],
      shownStatus: "Pagada",
    },
    {
      // Left unpaid: the receipt shown twice, with the same voucher.
      ...paidByCard,
      journey: "customer 5 journey 1 (topup)",
      idempotencyKey: "key-topup-2",
      phoneNumber: "5500005002",
      amount: 100,
      refs: ["id-topup-2"],
      folios: ["REC-2026-000002", "REC-2026-000002", "REC-2026-000002"],
      amountsShown: [100, 100, 100, 100, 100],
      method: "cash",
      instructionsShown: [
        { method: "cash", reference: CASH_TOPUP_REF, clabe: null },
        { method: "cash", reference: CASH_TOPUP_REF, clabe: null },
      ],
      voucherOutcome: "unpaid",
      providerConfirmedPaid: false,
      shownPaid: false,
      shownStatus: "Pendiente de pago",
    },
  ];
  const portabilityRequests: ToldPortabilityRequest[] = [
    {
      journey: "customer 4 journey 1 (portability)",
      idempotencyKey: "key-port-1",
      outcome: "told",
      phoneNumber: "3004000001",
      folios: ["POR-2026-000001", "POR-2026-000001"],
    },
    {
      journey: "customer 4 journey 2 (portability)",
      idempotencyKey: "key-port-2",
      outcome: "refused",
      phoneNumber: "3004000001",
      folios: [],
    },
  ];
  const rows: StoredRows = {
    orders: [
      {
        id: "ref-order-1",
        folio: "PED-2026-000001",
        idempotency_key: "key-order-1",
        status: "paid",
        total: 250,
      },
      {
        id: "ref-order-2",
        folio: "PED-2026-000002",
        idempotency_key: "key-order-2",
        status: "paid",
        total: 100,
      },
      {
        id: "ref-order-3",
        folio: "PED-2026-000003",
        idempotency_key: "key-order-3",
        status: "cancelled",
        total: 300,
      },
      {
        id: "ref-order-4",
        folio: "PED-2026-000004",
        idempotency_key: reorderKey("key-order-3"),
        status: "paid",
        total: 300,
      },
    ],
    orderLines: [
      { order_id: "ref-order-1", position: 0, unit_price: 50, quantity: 3, line_total: 150 },
      { order_id: "ref-order-1", position: 1, unit_price: 100, quantity: 1, line_total: 100 },
      { order_id: "ref-order-2", position: 0, unit_price: 100, quantity: 1, line_total: 100 },
      { order_id: "ref-order-3", position: 0, unit_price: 300, quantity: 1, line_total: 300 },
      { order_id: "ref-order-4", position: 0, unit_price: 300, quantity: 1, line_total: 300 },
    ],
    topups: [
      {
        id: "id-topup-1",
        folio: "REC-2026-000001",
        idempotency_key: "key-topup-1",
        status: "paid",
        amount: 50,
        phone_number: "5500003001",
      },
      {
        id: "id-topup-2",
        folio: "REC-2026-000002",
        idempotency_key: "key-topup-2",
        status: "pending_payment",
        amount: 100,
        phone_number: "5500005002",
      },
    ],
    payments: [
      payment({
        id: "pay_1",
        purpose: "order",
        reference: "ref-order-1",
        amount: 250,
        status: "approved",
      }),
      cashPayment(
        {
          id: "pay_2",
          purpose: "order",
          reference: "ref-order-2",
          amount: 100,
          status: "approved",
        },
        CASH_ORDER_REF,
      ),
      payment({
        id: "pay_3",
        purpose: "topup",
        reference: "id-topup-1",
        amount: 50,
        status: "approved",
      }),
      payment({
        id: "pay_4",
        purpose: "order",
        reference: "ref-order-3",
        amount: 300,
        status: "expired",
        method: "spei",
        instructions: JSON.stringify({
          method: "spei",
          clabe: SPEI_CLABE,
          reference: SPEI_REF,
          bank: "STP (entorno de pruebas)",
          beneficiary: "Conecta Móvil Telecomunicaciones, S.A. de C.V.",
          expiresAt: EXPIRES,
          hostedUrl: null,
        }),
        instruction_reference: `spei:${SPEI_CLABE}:${SPEI_REF}`,
        expires_at: EXPIRES,
      }),
      payment({
        id: "pay_5",
        purpose: "order",
        reference: "ref-order-4",
        amount: 300,
        status: "approved",
      }),
      cashPayment(
        {
          id: "pay_6",
          purpose: "topup",
          reference: "id-topup-2",
          amount: 100,
          status: "pending",
        },
        CASH_TOPUP_REF,
      ),
      // The card page order 2 was first sent to, closed when the customer chose cash instead.
      payment({
        id: "pay_7",
        purpose: "order",
        reference: "ref-order-2",
        amount: 100,
        status: "replaced",
      }),
    ],
    sandboxCheckouts: [
      checkout({ id: "chk_1", merchant_reference: "pay_1", amount: 250, status: "approved" }),
      checkout({
        id: "chk_2",
        merchant_reference: "pay_2",
        amount: 100,
        status: "approved",
        method: "cash",
        reference: CASH_ORDER_REF,
      }),
      checkout({ id: "chk_3", merchant_reference: "pay_3", amount: 50, status: "approved" }),
      checkout({
        id: "chk_4",
        merchant_reference: "pay_4",
        amount: 300,
        status: "expired",
        method: "spei",
        reference: SPEI_REF,
        clabe: SPEI_CLABE,
      }),
      checkout({ id: "chk_5", merchant_reference: "pay_5", amount: 300, status: "approved" }),
      checkout({
        id: "chk_6",
        merchant_reference: "pay_6",
        amount: 100,
        status: "open",
        method: "cash",
        reference: CASH_TOPUP_REF,
      }),
      checkout({ id: "chk_7", merchant_reference: "pay_7", amount: 100, status: "expired" }),
    ],
    portabilityRequests: [
      {
        id: "id-port-1",
        folio: "POR-2026-000001",
        idempotency_key: "key-port-1",
        phone_number: "3004000001",
        status: "received",
      },
    ],
    // The paid top-up, applied at the BSS (its lines' own checks: reconcile-lines.test.ts).
    line: {
      lines: [],
      lineJobs: [{ id: "topup:id-topup-1", kind: "apply-topup", state: "done", result: null }],
      bssSimLines: [
        { number: "5500003001", status: "active", data_total_mb: 1024, data_used_mb: 0 },
      ],
      bssSimPackages: [
        {
          number: "5500003001",
          position: 0,
          applied_by: "topup:id-topup-1",
          offer_id: "conecta-50",
          starts_at: "2026-11-24T10:00:00.000Z",
          ends_at: "2026-12-01T10:00:00.000Z",
          minutes_allowance: null,
          sms_allowance: null,
          minutes_used: 0,
          sms_used: 0,
        },
      ],
      bssSimTopups: [
        { topup_id: "id-topup-1", number: "5500003001", amount: 50, offer_id: "conecta-50" },
      ],
      bssSimUsage: [],
      bssSimActivations: [],
    },
    // Its own checks: reconcile-registrations.test.ts.
    registration: { registrations: [], registrationAttempts: [] },
    // Its own checks: reconcile-auto-topups.test.ts.
    autoTopup: { autoTopups: [], charges: [], providerCharges: [] },
    // Its own checks: reconcile-invoices.test.ts.
    invoicing: { invoices: [], invoiceMails: [], approvedPayments: [] },
  };
  const line = { added: [], installs: [], usage: [] };
  const registration = { registrations: [] };
  const invoicing = { invoices: [] };
  return {
    ledger: { orders, topups, portabilityRequests, line, registration, autoTopups: [], invoicing },
    rows,
  };
}

const kinds = (report: ReturnType<typeof reconcile>): FindingKind[] =>
  report.findings.map((finding) => finding.kind).sort();

/** The rows with one payment changed, and its provider's checkout too when given. */
function withPayment(
  rows: StoredRows,
  id: string,
  change: Partial<StoredPayment>,
  checkoutChange?: Partial<StoredCheckout>,
): StoredRows {
  return {
    ...rows,
    payments: rows.payments.map((row) => (row.id === id ? { ...row, ...change } : row)),
    sandboxCheckouts: rows.sandboxCheckouts.map((row) =>
      row.merchant_reference === id && checkoutChange ? { ...row, ...checkoutChange } : row,
    ),
  };
}

describe("reconcile", () => {
  it("finds nothing wrong in a consistent run, and counts what it compared", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, rows);
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.checked).toEqual({
      toldOrders: 4,
      toldTopups: 2,
      toldPortabilityRequests: 1,
      orders: 4,
      topups: 2,
      portabilityRequests: 1,
      payments: 7,
      approvedPayments: 4,
      paymentsByMethod: {
        card: { approved: 3, replaced: 1 },
        cash: { approved: 1, pending: 1 },
        spei: { expired: 1 },
      },
      reorders: 1,
      line: {
        appliedTopups: 1,
        lines: 1,
        linesWithUsage: 0,
        usageCalls: 0,
        linesAdded: 0,
        installs: 0,
      },
      registration: {
        registrations: 0,
        current: 0,
        replaced: 0,
        holders: 0,
        failedAttempts: 0,
        told: 0,
        refusedAtLimit: 0,
        refusedInPerson: 0,
      },
      autoTopup: { told: 0, autoTopups: 0, charges: 0, paidCharges: 0, periods: 0 },
      invoicing: { invoicesAsked: 0, invoicesShown: 0, invoicesIssued: 0 },
    });
  });

  it("takes an automatic top-up's top-up for its charge's, not an orphan; charged twice in a period, the run fails", () => {
    const { ledger, rows } = cleanRun();
    const period = "sin-paquete:2026-11-25";
    const automatic: StoredRows = {
      ...rows,
      topups: [
        ...rows.topups,
        {
          id: "id-auto-1",
          folio: "REC-2026-000090",
          idempotency_key: "auto-topup:rac_1",
          status: "paid",
          amount: 150,
          phone_number: "5500003009",
        },
      ],
      payments: [
        ...rows.payments,
        payment({
          id: "pay_a1",
          purpose: "topup",
          reference: "id-auto-1",
          amount: 150,
          status: "approved",
        }),
      ],
      autoTopup: {
        autoTopups: [
          { id: "ra_1", account_sub: "ana", number: "5500003009", monthly_max: 2, state: "active" },
        ],
        charges: [
          {
            id: "rac_1",
            auto_topup_id: "ra_1",
            number: "5500003009",
            period,
            state: "paid",
            topup_id: "id-auto-1",
            settled_at: "2026-11-25T18:00:00.000Z",
          },
        ],
        providerCharges: [],
      },
    };
    // (The line's own reconciliation would look for it at the BSS: not part of this fixture.)
    const automaticKinds = kinds(reconcile(ledger, automatic)).filter(
      (kind) => kind !== "topup-not-applied",
    );
    expect(automaticKinds).toEqual([]);
    const twice = withPayment(
      {
        ...automatic,
        payments: [
          ...automatic.payments,
          payment({
            id: "pay_a2",
            purpose: "topup",
            reference: "id-auto-1",
            amount: 150,
            status: "approved",
          }),
        ],
      },
      "pay_a2",
      {},
    );
    expect(kinds(reconcile(ledger, twice)).filter((kind) => kind !== "topup-not-applied")).toEqual([
      "auto-topup-charged-twice",
      "payment-duplicate",
    ]);
  });

  it("reports an order a customer was told about that the database lost", () => {
    const { ledger, rows } = cleanRun();
    const broken: StoredRows = {
      ...rows,
      orders: rows.orders.filter((order) => order.id !== "ref-order-2"),
      orderLines: rows.orderLines.filter((line) => line.order_id !== "ref-order-2"),
      payments: rows.payments.filter((payment) => payment.reference !== "ref-order-2"),
      sandboxCheckouts: rows.sandboxCheckouts.filter(
        (checkout) => !["chk_2", "chk_7"].includes(checkout.id),
      ),
    };
    const report = reconcile(ledger, broken);
    // Once for the submission's key, once for the reference the customer was sent to.
    expect(kinds(report)).toEqual(["missing", "missing"]);
    expect(report.findings[0].detail).toContain("PED-2026-000002");
    expect(report.findings[0].detail).toContain("customer 2 journey 4");
  });

  it("reports two orders for one submission, and one folio on two rows", () => {
    const { ledger, rows } = cleanRun();
    const twin = {
      ...rows.orders[1],
      id: "ref-order-2b",
      folio: "PED-2026-000009",
      status: "pending_payment" as const,
    };
    const report = reconcile(ledger, {
      ...rows,
      orders: [...rows.orders, twin],
      orderLines: [...rows.orderLines, { ...rows.orderLines[2], order_id: "ref-order-2b" }],
    });
    expect(kinds(report)).toEqual(["duplicate"]);
    expect(report.findings[0].detail).toContain("key-order-2");

    const sameFolio = { ...twin, idempotency_key: "key-order-1", folio: "PED-2026-000001" };
    const folioReport = reconcile(ledger, {
      ...rows,
      orders: [rows.orders[0], sameFolio, ...rows.orders.slice(1)],
      orderLines: [...rows.orderLines, { ...rows.orderLines[2], order_id: "ref-order-2b" }],
    });
    expect(kinds(folioReport)).toEqual(["duplicate", "duplicate"]);
  });

  it("reports customers told different folios for the same submission", () => {
    const { ledger, rows } = cleanRun();
    const portability = [
      { ...ledger.portabilityRequests[0], folios: ["POR-2026-000001", "POR-2026-000009"] },
      ledger.portabilityRequests[1],
    ];
    const report = reconcile({ ...ledger, portabilityRequests: portability }, rows);
    expect(kinds(report)).toEqual(["told-mismatch"]);
    expect(report.findings[0].detail).toContain("POR-2026-000009");
  });

  it("reports a customer sent to another top-up's receipt", () => {
    const { ledger, rows } = cleanRun();
    const topups = [{ ...ledger.topups[0], refs: ["id-topup-2"] }, ledger.topups[1]];
    const report = reconcile({ ...ledger, topups }, rows);
    expect(kinds(report)).toEqual(["told-mismatch"]);
    expect(report.findings[0].detail).toContain("sent to receipt id-topup-2");
  });

  it("reports rows no customer created", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, {
      ...rows,
      orders: [
        ...rows.orders,
        {
          id: "ref-ghost",
          folio: "PED-2026-000099",
          idempotency_key: "key-nobody",
          status: "pending_payment",
          total: 80,
        },
      ],
      orderLines: [
        ...rows.orderLines,
        { order_id: "ref-ghost", position: 0, unit_price: 80, quantity: 1, line_total: 80 },
      ],
      portabilityRequests: [
        ...rows.portabilityRequests,
        {
          id: "id-port-ghost",
          folio: "POR-2026-000099",
          idempotency_key: "key-nobody-2",
          phone_number: "3999999999",
          status: "received",
        },
      ],
    });
    expect(kinds(report)).toEqual(["orphan", "orphan"]);
    expect(report.findings.map((finding) => finding.subject).sort()).toEqual([
      "order",
      "portability request",
    ]);
  });

  it("reports a refused submission that left a row behind", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, {
      ...rows,
      portabilityRequests: [
        ...rows.portabilityRequests,
        {
          id: "id-port-2",
          folio: "POR-2026-000002",
          idempotency_key: "key-port-2",
          phone_number: "3004000001",
          status: "received",
        },
      ],
    });
    // The refused form was stored, and so the number has two open requests.
    expect(kinds(report)).toEqual(["duplicate", "refused-but-stored"]);
  });

  it("reports a payment whose amount is not its order's", () => {
    const { ledger, rows } = cleanRun();
    const payments = rows.payments.map((payment) =>
      payment.id === "pay_1" ? { ...payment, amount: 249 } : payment,
    );
    const sandboxCheckouts = rows.sandboxCheckouts.map((checkout) =>
      checkout.id === "chk_1" ? { ...checkout, amount: 249 } : checkout,
    );
    const report = reconcile(ledger, { ...rows, payments, sandboxCheckouts });
    expect(kinds(report)).toEqual(["payment-amount"]);
    expect(report.findings[0].detail).toContain("PED-2026-000001");
  });

  it("reports paid things without exactly one approved payment, and approved payments of nothing paid", () => {
    const { ledger, rows } = cleanRun();
    const missing = reconcile(ledger, {
      ...rows,
      payments: rows.payments.filter((payment) => payment.id !== "pay_3"),
      sandboxCheckouts: rows.sandboxCheckouts.filter((checkout) => checkout.id !== "chk_3"),
    });
    expect(kinds(missing)).toEqual(["payment-missing"]);

    const twice = reconcile(ledger, {
      ...rows,
      payments: [...rows.payments, { ...rows.payments[0], id: "pay_1b" }],
    });
    expect(kinds(twice)).toEqual(["payment-duplicate"]);

    const unpaidTopup = reconcile(ledger, {
      ...rows,
      topups: rows.topups.map((topup) => ({ ...topup, status: "pending_payment" as const })),
    });
    // The approved payment pays a top-up still pending, which the customer was shown as paid
    // and whose payment the provider had confirmed; and the BSS applied it.
    expect(kinds(unpaidTopup)).toEqual([
      "applied-unpaid",
      "payment-orphan",
      "told-mismatch",
      "told-mismatch",
    ]);

    const ofNothing = reconcile(ledger, {
      ...rows,
      payments: [
        ...rows.payments,
        payment({
          id: "pay_x",
          purpose: "order",
          reference: "ref-none",
          amount: 10,
          status: "approved",
        }),
      ],
    });
    expect(kinds(ofNothing)).toEqual(["payment-orphan"]);
  });

  it("reports an order whose total is not the sum of its lines", () => {
    const { ledger, rows } = cleanRun();
    const orderLines = rows.orderLines.map((line) =>
      line.order_id === "ref-order-1" && line.position === 1 ? { ...line, line_total: 90 } : line,
    );
    const report = reconcile(ledger, { ...rows, orderLines });
    // The line's own total is wrong too: 1 × 100 is not 90.
    expect(kinds(report)).toEqual(["total-mismatch", "total-mismatch"]);
  });

  it("reports pages that showed another amount or an unpaid state after paying", () => {
    const { ledger, rows } = cleanRun();
    const orders = [
      { ...ledger.orders[0], amountsShown: [250, 250, 205] },
      { ...ledger.orders[1], shownPaid: false, shownStatus: "Pendiente de pago" },
      ...ledger.orders.slice(2),
    ];
    const report = reconcile({ ...ledger, orders }, rows);
    expect(kinds(report)).toEqual(["told-mismatch", "told-mismatch"]);
  });

  it("reports the provider approving a payment the store still has pending", () => {
    const { ledger, rows } = cleanRun();
    const orders = rows.orders.map((order) =>
      order.id === "ref-order-2" ? { ...order, status: "pending_payment" as const } : order,
    );
    const payments = rows.payments.map((payment) =>
      payment.id === "pay_2" ? { ...payment, status: "pending" as const } : payment,
    );
    const told = ledger.orders.map((order) =>
      order.idempotencyKey === "key-order-2"
        ? { ...order, shownPaid: false, providerConfirmedPaid: false, shownStatus: null }
        : order,
    );
    const report = reconcile({ ...ledger, orders: told }, { ...rows, orders, payments });
    expect(kinds(report)).toEqual(["provider-mismatch"]);
  });

  it("notes, without failing, a row whose customer never got the answer", () => {
    const { ledger, rows } = cleanRun();
    const orders = [
      ledger.orders[0],
      { ...ledger.orders[1], outcome: "unknown" as const },
      ...ledger.orders.slice(2),
    ];
    const report = reconcile({ ...ledger, orders }, rows);
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([
      expect.objectContaining({
        subject: "order",
        detail: expect.stringContaining("PED-2026-000002"),
      }),
    ]);
  });

  it("reports inconsistencies a journey saw while it ran", () => {
    const { ledger, rows } = cleanRun();
    const topups = [
      { ...ledger.topups[0], problems: ["one form led to two payment pages"] },
      ledger.topups[1],
    ];
    expect(kinds(reconcile({ ...ledger, topups }, rows))).toEqual(["journey-inconsistency"]);
  });

  it("reports a payment the provider confirmed to the customer that the store did not apply", () => {
    const { ledger, rows } = cleanRun();
    // The simulator took the voucher as paid; the journey ended before the receipt.
    const topups = ledger.topups.map((topup) =>
      topup.idempotencyKey === "key-topup-2"
        ? {
            ...topup,
            voucherOutcome: "paid" as const,
            providerConfirmedPaid: true,
            shownStatus: null,
          }
        : topup,
    );
    const report = reconcile({ ...ledger, topups }, rows);
    expect(kinds(report)).toEqual(["told-mismatch"]);
    expect(report.findings[0].detail).toContain("REC-2026-000002");
  });

  it("reports an approved payment by another method than the one the customer paid with", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(
      ledger,
      withPayment(rows, "pay_2", { method: "card" }, { method: "card" }),
    );
    expect(kinds(report)).toEqual(["told-mismatch"]);
    expect(report.findings[0].detail).toContain("paid by cash");
  });

  it("reports an order the customer was told was cancelled that has an approved payment, or is not cancelled", () => {
    const { ledger, rows } = cleanRun();
    const paidAnyway = reconcile(ledger, {
      ...rows,
      payments: [
        ...rows.payments,
        payment({
          id: "pay_8",
          purpose: "order",
          reference: "ref-order-3",
          amount: 300,
          status: "approved",
        }),
      ],
    });
    expect(kinds(paidAnyway)).toEqual(["cancelled-but-paid", "payment-orphan"]);

    // Without the cart bought again (which only a cancelled order allows).
    const stillPending = reconcile(
      { ...ledger, orders: ledger.orders.filter((order) => !order.refs.includes("ref-order-4")) },
      {
        ...rows,
        orders: rows.orders
          .filter((order) => order.id !== "ref-order-4")
          .map((order) =>
            order.id === "ref-order-3" ? { ...order, status: "pending_payment" as const } : order,
          ),
        orderLines: rows.orderLines.filter((line) => line.order_id !== "ref-order-4"),
        payments: rows.payments.filter((payment) => payment.id !== "pay_5"),
        sandboxCheckouts: rows.sandboxCheckouts.filter((checkout) => checkout.id !== "chk_5"),
      },
    );
    // The transfer expired and the customer saw "Cancelado", yet the order waits for payment.
    expect(kinds(stillPending)).toEqual(["expiry-mismatch", "told-mismatch"]);
    expect(stillPending.findings.map((finding) => finding.detail).join("\n")).toContain(
      "told it was cancelled",
    );
  });

  it("reports an expired voucher whose top-up is not cancelled", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(
      ledger,
      withPayment(rows, "pay_6", { status: "expired" }, { status: "expired" }),
    );
    expect(kinds(report)).toEqual(["expiry-mismatch"]);
    expect(report.findings[0].detail).toContain("REC-2026-000002");
  });

  it("reports a cancelled order without an expired voucher, and a cancelled top-up with a payment still open", () => {
    const { ledger, rows } = cleanRun();
    // The transfer was replaced, not expired: nothing explains the cancellation.
    const unexplained = reconcile(ledger, withPayment(rows, "pay_4", { status: "replaced" }));
    expect(kinds(unexplained)).toEqual(["expiry-mismatch"]);
    expect(unexplained.findings[0].detail).toContain("PED-2026-000003");

    // An earlier voucher expired and cancelled the top-up; a new one is still payable.
    const stillOpen = reconcile(ledger, {
      ...rows,
      topups: rows.topups.map((topup) =>
        topup.id === "id-topup-2" ? { ...topup, status: "cancelled" as const } : topup,
      ),
      payments: [
        ...rows.payments,
        cashPayment(
          {
            id: "pay_6a",
            purpose: "topup",
            reference: "id-topup-2",
            amount: 100,
            status: "expired",
          },
          "93000000000033",
        ),
      ],
    });
    expect(kinds(stillOpen)).toEqual(["expiry-mismatch"]);
    expect(stillOpen.findings[0].detail).toContain("pay_6 is still open");
  });

  it("reports a voucher or transfer reference issued twice, by the store or by the provider", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, {
      ...rows,
      payments: [
        ...rows.payments,
        cashPayment(
          {
            id: "pay_9",
            purpose: "topup",
            reference: "id-topup-2",
            amount: 100,
            status: "replaced",
          },
          CASH_TOPUP_REF,
        ),
      ],
      sandboxCheckouts: [
        ...rows.sandboxCheckouts,
        checkout({
          id: "chk_9",
          merchant_reference: "pay_9",
          amount: 100,
          status: "expired",
          method: "cash",
          reference: CASH_TOPUP_REF,
        }),
      ],
    });
    expect(report.findings.map((finding) => [finding.kind, finding.subject])).toEqual([
      ["reference-duplicate", "payment"],
      ["reference-duplicate", "sandbox checkout"],
    ]);

    // Two transfers to one CLABE at the provider.
    const sameClabe = reconcile(ledger, {
      ...rows,
      sandboxCheckouts: rows.sandboxCheckouts.map((row) =>
        row.id === "chk_7" ? { ...row, clabe: SPEI_CLABE } : row,
      ),
    });
    expect(kinds(sameClabe)).toEqual(["reference-duplicate"]);
    expect(sameClabe.findings[0].detail).toContain(`clabe ${SPEI_CLABE}`);
  });

  it("reports a voucher shown to a customer that is another payment's, or no payment's", () => {
    const { ledger, rows } = cleanRun();
    const shownOther = (reference: string) =>
      ledger.orders.map((order) =>
        order.idempotencyKey === "key-order-2"
          ? { ...order, instructionsShown: [{ method: "cash" as const, reference, clabe: null }] }
          : order,
      );
    const another = reconcile({ ...ledger, orders: shownOther(CASH_TOPUP_REF) }, rows);
    expect(kinds(another)).toEqual(["reference-mismatch"]);
    expect(another.findings[0].detail).toContain("pay_6 of topup id-topup-2");

    const nobodys = reconcile({ ...ledger, orders: shownOther("93999999999999") }, rows);
    expect(kinds(nobodys)).toEqual(["reference-mismatch"]);
    expect(nobodys.findings[0].detail).toContain("no payment's");

    const topups = ledger.topups.map((topup) =>
      topup.idempotencyKey === "key-topup-2"
        ? {
            ...topup,
            instructionsShown: [{ method: "cash" as const, reference: null, clabe: null }],
          }
        : topup,
    );
    const none = reconcile({ ...ledger, topups }, rows);
    expect(kinds(none)).toEqual(["reference-mismatch"]);
    expect(none.findings[0].detail).toContain("without their reference");
  });

  it("reports the provider's checkout expired while the store's payment is not, and the other way round", () => {
    const { ledger, rows } = cleanRun();
    const expiredThere = reconcile(ledger, withPayment(rows, "pay_6", {}, { status: "expired" }));
    expect(kinds(expiredThere)).toEqual(["provider-mismatch"]);

    const openThere = reconcile(ledger, withPayment(rows, "pay_4", {}, { status: "open" }));
    expect(kinds(openThere)).toEqual(["provider-mismatch"]);

    // A card page given up for another method is closed at the provider.
    const replacedButOpen = reconcile(ledger, withPayment(rows, "pay_7", {}, { status: "open" }));
    expect(kinds(replacedButOpen)).toEqual(["provider-mismatch"]);
  });

  it("reports the provider's voucher or method disagreeing with the store's payment", () => {
    const { ledger, rows } = cleanRun();
    const otherVoucher = reconcile(
      ledger,
      withPayment(rows, "pay_2", {}, { reference: "93000000000041" }),
    );
    expect(kinds(otherVoucher)).toEqual(["provider-mismatch"]);

    const otherMethod = reconcile(ledger, withPayment(rows, "pay_1", {}, { method: "spei" }));
    expect(kinds(otherMethod)).toEqual(["provider-mismatch"]);
  });

  it("reports two approved payments of one order whatever their methods", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, {
      ...rows,
      payments: [
        ...rows.payments,
        payment({
          id: "pay_10",
          purpose: "order",
          reference: "ref-order-2",
          amount: 100,
          status: "approved",
        }),
      ],
      sandboxCheckouts: [
        ...rows.sandboxCheckouts,
        checkout({ id: "chk_10", merchant_reference: "pay_10", amount: 100, status: "approved" }),
      ],
    });
    expect(kinds(report)).toEqual(["payment-duplicate"]);
    expect(report.findings[0].detail).toContain("pay_2 (cash), pay_10 (card)");
  });

  it("follows a re-placed order that the same browser's next form continued under its new key", () => {
    const { ledger, rows } = cleanRun();
    const continued: ToldOrder = {
      ...ledger.orders[ledger.orders.length - 1],
      journey: "customer 3 journey 4 (checkout)",
      idempotencyKey: reorderKey("key-order-3"),
    };
    const report = reconcile({ ...ledger, orders: [...ledger.orders, continued] }, rows);
    expect(report.findings).toEqual([]);
    expect(report.checked.reorders).toBe(1);
  });

  it("follows a cart bought again after its order was cancelled to the new order, and reports a second one", () => {
    const { ledger, rows } = cleanRun();
    // Without following it, the new order would be no submission's and the customer's folio
    // another order's: the clean run has no finding, and counts it.
    expect(reconcile(ledger, rows).checked.reorders).toBe(1);

    // The same form sent twice made two new orders.
    const orders = ledger.orders.map((order) =>
      order.refs.includes("ref-order-4")
        ? { ...order, refs: ["ref-order-4", "ref-order-5"], problems: [] }
        : order,
    );
    const report = reconcile(
      { ...ledger, orders },
      {
        ...rows,
        orders: [
          ...rows.orders,
          {
            id: "ref-order-5",
            folio: "PED-2026-000005",
            idempotency_key: "key-store-5",
            status: "pending_payment",
            total: 300,
          },
        ],
        orderLines: [
          ...rows.orderLines,
          { order_id: "ref-order-5", position: 0, unit_price: 300, quantity: 1, line_total: 300 },
        ],
      },
    );
    expect(report.checked.reorders).toBe(0);
    expect(kinds(report)).toContain("orphan");
    expect(report.findings.map((finding) => finding.detail).join("\n")).toContain(
      "PED-2026-000005",
    );
  });
});
