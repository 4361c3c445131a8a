import { describe, expect, it } from "vitest";
import { reconcileInvoices, type InvoiceLedger, type InvoiceRows } from "./reconcile-invoices";

const UUID_A = "11111111-1111-4111-8111-111111111111";
const UUID_B = "22222222-2222-4222-8222-222222222222";

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer E> ? E[] : T[K] };

function store(): { ledger: Mutable<InvoiceLedger>; rows: Mutable<InvoiceRows> } {
  return {
    ledger: {
      invoices: [
        { journey: "c1 j1", kind: "topup", ref: "t1", outcome: "told", uuids: [UUID_A, UUID_A] },
        { journey: "c2 j1", kind: "order", ref: "o1", outcome: "told", uuids: [UUID_B] },
      ],
    },
    rows: {
      invoices: [
        {
          id: "i1",
          payment_key: "topup:t1",
          purpose: "topup",
          reference: "t1",
          folio: "FAC-2026-000001",
          state: "issued",
          uuid: UUID_A,
          total: "200.00",
          has_xml: 1,
        },
        {
          id: "i2",
          payment_key: "order:o1",
          purpose: "order",
          reference: "o1",
          folio: "FAC-2026-000002",
          state: "cancelled",
          uuid: UUID_B,
          total: "399.00",
          has_xml: true,
        },
      ],
      invoiceMails: [{ data: '{"invoiceId":"i1"}' }, { data: '{"invoiceId":"i2"}' }],
      approvedPayments: [
        { purpose: "topup", reference: "t1", amount: 200 },
        { purpose: "order", reference: "o1", amount: "399" },
      ],
    },
  };
}

const kinds = (input: ReturnType<typeof store>) =>
  reconcileInvoices(input).findings.map((finding) => finding.kind);

describe("the soak's reconciliation of invoices", () => {
  it("finds nothing when every payment has one invoice, shown with its UUID, paid, mailed once", () => {
    expect(reconcileInvoices(store())).toEqual({
      findings: [],
      checked: { invoicesAsked: 2, invoicesShown: 2, invoicesIssued: 2 },
    });
  });

  it("fails on a payment invoiced twice: two rows, or two UUIDs shown for one purchase", () => {
    const twice = store();
    twice.rows.invoices = [
      ...twice.rows.invoices,
      {
        ...twice.rows.invoices[0],
        id: "i3",
        folio: "FAC-2026-000003",
        uuid: UUID_B.replace(/2/g, "3"),
      },
    ];
    expect(kinds(twice)).toContain("invoice-duplicate");
    const shownTwo = store();
    shownTwo.ledger.invoices[0] = { ...shownTwo.ledger.invoices[0], uuids: [UUID_A, UUID_B] };
    expect(kinds(shownTwo)).toEqual(
      expect.arrayContaining(["invoice-duplicate", "invoice-missing"]),
    );
  });

  it("fails on a UUID shown that is not the purchase's invoice", () => {
    const other = store();
    other.ledger.invoices[1] = { ...other.ledger.invoices[1], uuids: [UUID_A] };
    expect(kinds(other)).toEqual(["invoice-missing"]);
  });

  it("fails on an invoice of nothing paid, or of another amount", () => {
    const unpaid = store();
    unpaid.rows.approvedPayments = unpaid.rows.approvedPayments.slice(1);
    expect(kinds(unpaid)).toEqual(["invoice-unpaid"]);
    const amount = store();
    amount.rows.invoices[0] = { ...amount.rows.invoices[0], total: "199.00" };
    expect(kinds(amount)).toEqual(["invoice-amount"]);
  });

  it("fails on a claim left behind, an invoice without its XML, and its e-mail queued twice or never", () => {
    const stuck = store();
    stuck.rows.invoices[0] = { ...stuck.rows.invoices[0], state: "stamping", uuid: null };
    stuck.ledger.invoices = [];
    expect(kinds(stuck)).toEqual(["invoice-stuck"]);
    const noXml = store();
    noXml.rows.invoices[1] = { ...noXml.rows.invoices[1], has_xml: 0 };
    expect(kinds(noXml)).toEqual(["invoice-missing"]);
    const mails = store();
    mails.rows.invoiceMails = [{ data: '{"invoiceId":"i1"}' }, { data: '{"invoiceId":"i1"}' }];
    expect(kinds(mails).sort()).toEqual(["invoice-mail", "invoice-mail"]);
  });
});
