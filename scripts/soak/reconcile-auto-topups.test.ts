import { describe, expect, it } from "vitest";
import type { PaymentStatus, TopupStatus } from "~/db/schema";
import {
  isAutomaticTopupKey,
  reconcileAutoTopups,
  type AutoTopupRows,
  type ToldAutoTopup,
} from "./reconcile-auto-topups";

const NUMBER = "5512345678";
const PERIOD = "paquete:2026-12-01T06:00:00.000Z";

/** One automatic top-up charged once for its period, as a clean run leaves it. */
function clean() {
  const rows: AutoTopupRows = {
    autoTopups: [
      { id: "ra_1", account_sub: "ana", number: NUMBER, monthly_max: 2, state: "active" },
    ],
    charges: [
      {
        id: "rac_1",
        auto_topup_id: "ra_1",
        number: NUMBER,
        period: PERIOD,
        state: "paid",
        topup_id: "tp_1",
        settled_at: "2026-11-25T18:00:00.000Z",
      },
    ],
    providerCharges: [
      {
        id: "chk_1",
        merchant_reference: "pay_1",
        status: "approved",
        idempotency_key: `auto-topup:${NUMBER}:${PERIOD}:1`,
      },
    ],
  };
  return {
    ledger: [
      { journey: "customer 1 journey 2", customer: 1, number: NUMBER, outcome: "told" },
    ] as ToldAutoTopup[],
    rows,
    topups: [
      {
        id: "tp_1",
        folio: "REC-2026-000001",
        idempotency_key: "auto-topup:rac_1",
        status: "paid" as TopupStatus,
      },
      {
        id: "tp_2",
        folio: "REC-2026-000002",
        idempotency_key: "abc.def",
        status: "paid" as TopupStatus,
      },
    ],
    payments: [
      { id: "pay_1", purpose: "topup", reference: "tp_1", status: "approved" as PaymentStatus },
      { id: "pay_2", purpose: "topup", reference: "tp_2", status: "approved" as PaymentStatus },
    ],
  };
}

const kinds = (input: ReturnType<typeof clean>) =>
  reconcileAutoTopups(input).findings.map((finding) => finding.kind);

describe("the automatic top-ups' reconciliation", () => {
  it("finds nothing in a clean run, and counts what it checked", () => {
    const result = reconcileAutoTopups(clean());
    expect(result.findings).toEqual([]);
    expect(result.checked).toEqual({
      told: 1,
      autoTopups: 1,
      charges: 1,
      paidCharges: 1,
      periods: 1,
    });
  });

  it("tells the scheduler's top-ups from the customers'", () => {
    expect(isAutomaticTopupKey("auto-topup:rac_1")).toBe(true);
    expect(isAutomaticTopupKey("abcdefghijklmnop.abcdefghijklmnopqrstuv")).toBe(false);
  });

  it("fails on an automatic top-up charged twice in one period: two approved payments", () => {
    const input = clean();
    input.payments.push({ id: "pay_3", purpose: "topup", reference: "tp_1", status: "approved" });
    expect(kinds(input)).toContain("auto-topup-charged-twice");
  });

  it("fails on two approved charges at the provider under one period's keys", () => {
    const input = clean();
    input.rows.providerCharges = [
      ...input.rows.providerCharges,
      {
        id: "chk_2",
        merchant_reference: "pay_9",
        status: "approved",
        idempotency_key: `auto-topup:${NUMBER}:${PERIOD}:2`,
      },
    ];
    expect(kinds(input)).toEqual(["auto-topup-charged-twice"]);
    // A declined first attempt and an approved second are one charge.
    input.rows.providerCharges = input.rows.providerCharges.map((charge) =>
      charge.id === "chk_1" ? { ...charge, status: "declined" } : charge,
    );
    expect(kinds(input)).toEqual([]);
  });

  it("fails on more charges in a month than the cap", () => {
    const input = clean();
    const second = {
      ...input.rows.charges[0]!,
      id: "rac_2",
      period: "sin-paquete:2026-11-26",
      topup_id: "tp_4",
    };
    const third = { ...second, id: "rac_3", period: "sin-paquete:2026-11-27", topup_id: "tp_5" };
    input.rows.charges = [...input.rows.charges, second, third];
    input.topups.push(
      { id: "tp_4", folio: "REC-2026-000004", idempotency_key: "auto-topup:rac_2", status: "paid" },
      { id: "tp_5", folio: "REC-2026-000005", idempotency_key: "auto-topup:rac_3", status: "paid" },
    );
    expect(kinds(input)).toEqual(["auto-topup-over-cap"]);
    // The same three charges in two months: within the cap.
    input.rows.charges = input.rows.charges.map((charge) =>
      charge.id === "rac_3" ? { ...charge, settled_at: "2026-12-02T18:00:00.000Z" } : charge,
    );
    expect(kinds(input)).toEqual([]);
  });

  it("fails on a charge and its top-up that disagree, and on a top-up no charge made", () => {
    const unpaid = clean();
    unpaid.topups[0] = { ...unpaid.topups[0]!, status: "pending_payment" };
    expect(kinds(unpaid)).toEqual(["auto-topup-mismatch"]);
    const stray = clean();
    stray.topups.push({
      id: "tp_9",
      folio: "REC-2026-000009",
      idempotency_key: "auto-topup:rac_unknown",
      status: "paid",
    });
    expect(kinds(stray)).toEqual(["auto-topup-mismatch"]);
    const declinedButPaid = clean();
    declinedButPaid.rows.charges = [{ ...declinedButPaid.rows.charges[0]!, state: "failed" }];
    expect(kinds(declinedButPaid)).toEqual(["auto-topup-mismatch"]);
  });

  it("fails when a customer was told theirs is on and none is stored", () => {
    const input = clean();
    input.ledger.push({
      journey: "customer 2 journey 5",
      customer: 2,
      number: "5599999999",
      outcome: "told",
    });
    input.ledger.push({
      journey: "customer 3 journey 1",
      customer: 3,
      number: "5588888888",
      outcome: "unknown",
    });
    expect(kinds(input)).toEqual(["auto-topup-missing"]);
  });
});
