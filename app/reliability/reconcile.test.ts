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

/**
 * A small consistent run: two paid orders (one of two lines, one submitted twice), a paid top-up,
 * a portability request and one refused as a duplicate. Each test breaks one thing.
 */
function cleanRun(): { ledger: ClientLedger; rows: StoredRows } {
  const orders: ToldOrder[] = [
    {
      journey: "customer 1 journey 1 (checkout)",
      idempotencyKey: "key-order-1",
      outcome: "told",
      refs: ["ref-order-1"],
      folios: ["PED-2026-000001"],
      amountsShown: [250, 250, 250],
      paidWithApprovedCard: true,
      shownPaid: true,
      shownStatus: "Pagado",
      problems: [],
    },
    {
      // A double submission: two answers, both naming the same order.
      journey: "customer 2 journey 4 (checkout)",
      idempotencyKey: "key-order-2",
      outcome: "told",
      refs: ["ref-order-2", "ref-order-2"],
      folios: ["PED-2026-000002"],
      amountsShown: [100, 100, 100],
      paidWithApprovedCard: true,
      shownPaid: true,
      shownStatus: "Pagado",
      problems: [],
    },
  ];
  const topups: ToldTopup[] = [
    {
      journey: "customer 3 journey 2 (topup)",
      idempotencyKey: "key-topup-1",
      outcome: "told",
      phoneNumber: "5500003001",
      amount: 50,
      folios: ["REC-2026-000001", "REC-2026-000001"],
      amountsShown: [50, 50],
      paidWithApprovedCard: true,
      shownPaid: true,
      shownStatus: "Pagada",
      problems: [],
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
    ],
    orderLines: [
      { order_id: "ref-order-1", position: 0, unit_price: 50, quantity: 3, line_total: 150 },
      { order_id: "ref-order-1", position: 1, unit_price: 100, quantity: 1, line_total: 100 },
      { order_id: "ref-order-2", position: 0, unit_price: 100, quantity: 1, line_total: 100 },
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
    ],
    payments: [
      { id: "pay_1", purpose: "order", reference: "ref-order-1", amount: 250, status: "approved" },
      { id: "pay_2", purpose: "order", reference: "ref-order-2", amount: 100, status: "approved" },
      { id: "pay_3", purpose: "topup", reference: "id-topup-1", amount: 50, status: "approved" },
    ],
    sandboxCheckouts: [
      { id: "chk_1", merchant_reference: "pay_1", amount: 250, status: "approved" },
      { id: "chk_2", merchant_reference: "pay_2", amount: 100, status: "approved" },
      { id: "chk_3", merchant_reference: "pay_3", amount: 50, status: "approved" },
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
  };
  return { ledger: { orders, topups, portabilityRequests }, rows };
}

const kinds = (report: ReturnType<typeof reconcile>): FindingKind[] =>
  report.findings.map((finding) => finding.kind).sort();

describe("reconcile", () => {
  it("finds nothing wrong in a consistent run, and counts what it compared", () => {
    const { ledger, rows } = cleanRun();
    const report = reconcile(ledger, rows);
    expect(report.findings).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.checked).toEqual({
      toldOrders: 2,
      toldTopups: 1,
      toldPortabilityRequests: 1,
      orders: 2,
      topups: 1,
      portabilityRequests: 1,
      payments: 3,
      approvedPayments: 3,
    });
  });

  it("reports an order a customer was told about that the database lost", () => {
    const { ledger, rows } = cleanRun();
    const broken: StoredRows = {
      ...rows,
      orders: rows.orders.filter((order) => order.id !== "ref-order-2"),
      orderLines: rows.orderLines.filter((line) => line.order_id !== "ref-order-2"),
      payments: rows.payments.filter((payment) => payment.id !== "pay_2"),
      sandboxCheckouts: rows.sandboxCheckouts.filter((checkout) => checkout.id !== "chk_2"),
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
      folio: "PED-2026-000003",
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
      orders: [rows.orders[0], sameFolio, rows.orders[1]],
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
    // The approved payment pays a top-up still pending, which the customer was shown as paid.
    expect(kinds(unpaidTopup)).toEqual(["payment-orphan", "told-mismatch"]);

    const ofNothing = reconcile(ledger, {
      ...rows,
      payments: [
        ...rows.payments,
        { id: "pay_x", purpose: "order", reference: "ref-none", amount: 10, status: "approved" },
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
        ? { ...order, shownPaid: false, paidWithApprovedCard: false, shownStatus: null }
        : order,
    );
    const report = reconcile({ ...ledger, orders: told }, { ...rows, orders, payments });
    expect(kinds(report)).toEqual(["provider-mismatch"]);
  });

  it("notes, without failing, a row whose customer never got the answer", () => {
    const { ledger, rows } = cleanRun();
    const orders = [ledger.orders[0], { ...ledger.orders[1], outcome: "unknown" as const }];
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
    const topups = [{ ...ledger.topups[0], problems: ["one form led to two payment pages"] }];
    expect(kinds(reconcile({ ...ledger, topups }, rows))).toEqual(["journey-inconsistency"]);
  });
});
