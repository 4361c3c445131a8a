/**
 * The invoices' part of the soak's reconciliation (issue 29): what /facturacion showed the
 * simulated customers against the invoices the store kept. Pure, like scripts/soak/reconcile.ts,
 * which merges its findings.
 *
 * - One invoice per payment: no payment key on two rows, no UUID on two rows, and no purchase for
 *   which the pages showed two different UUIDs (a double submission stamped twice).
 * - Every UUID a page showed is the issued invoice of that very purchase.
 * - Every invoice is of a purchase with an approved payment, for its amount.
 * - No claim was left behind (a row still stamping), and every issued invoice has its XML and
 *   exactly one e-mail queued.
 */

export type InvoiceFindingKind =
  | "invoice-duplicate"
  | "invoice-missing"
  | "invoice-unpaid"
  | "invoice-amount"
  | "invoice-stuck"
  | "invoice-mail";

export interface InvoiceFinding {
  kind: InvoiceFindingKind;
  subject: "invoice";
  detail: string;
}

/** One invoice a simulated customer asked for, with every UUID its pages showed. */
export interface ToldInvoice {
  journey: string;
  kind: "order" | "topup";
  ref: string;
  outcome: "told" | "unknown";
  uuids: readonly string[];
  problems?: readonly string[];
}

export interface InvoiceLedger {
  invoices: readonly ToldInvoice[];
}

export interface InvoiceRows {
  invoices: ReadonlyArray<{
    id: string;
    payment_key: string;
    purpose: string;
    reference: string;
    folio: string;
    state: string;
    uuid: string | null;
    total: string | null;
    has_xml: number | boolean;
  }>;
  invoiceMails: ReadonlyArray<{ data: string }>;
  approvedPayments: ReadonlyArray<{ purpose: string; reference: string; amount: number | string }>;
}

export function reconcileInvoices({ ledger, rows }: { ledger: InvoiceLedger; rows: InvoiceRows }): {
  findings: InvoiceFinding[];
  checked: Record<string, number>;
} {
  const findings: InvoiceFinding[] = [];
  const finding = (kind: InvoiceFindingKind, detail: string) =>
    findings.push({ kind, subject: "invoice", detail });

  const byKey = new Map<string, InvoiceRows["invoices"][number][]>();
  const byUuid = new Map<string, string[]>();
  for (const invoice of rows.invoices) {
    byKey.set(invoice.payment_key, [...(byKey.get(invoice.payment_key) ?? []), invoice]);
    if (invoice.uuid)
      byUuid.set(invoice.uuid, [...(byUuid.get(invoice.uuid) ?? []), invoice.folio]);
  }
  for (const [key, invoices] of byKey) {
    if (invoices.length > 1) {
      finding(
        "invoice-duplicate",
        `${key} invoiced ${invoices.length} times: ${invoices.map((invoice) => invoice.folio).join(", ")}`,
      );
    }
  }
  for (const [uuid, folios] of byUuid) {
    if (folios.length > 1) finding("invoice-duplicate", `UUID ${uuid} on ${folios.join(", ")}`);
  }

  for (const told of ledger.invoices) {
    const key = `${told.kind}:${told.ref}`;
    const shown = [...new Set(told.uuids)];
    if (shown.length > 1) {
      finding(
        "invoice-duplicate",
        `${told.journey}: ${key} shown ${shown.length} UUIDs: ${shown.join(", ")}`,
      );
    }
    for (const problem of told.problems ?? [])
      finding("invoice-missing", `${told.journey}: ${problem}`);
    const stored = byKey.get(key)?.[0];
    for (const uuid of shown) {
      if (
        !stored ||
        stored.uuid !== uuid ||
        (stored.state !== "issued" && stored.state !== "cancelled")
      ) {
        finding(
          "invoice-missing",
          `${told.journey}: ${key} was shown UUID ${uuid}, which is not its invoice`,
        );
      }
    }
  }

  const paid = new Map(
    rows.approvedPayments.map((payment) => [`${payment.purpose}:${payment.reference}`, payment]),
  );
  const mails = new Map<string, number>();
  for (const mail of rows.invoiceMails) {
    const { invoiceId } = JSON.parse(mail.data) as { invoiceId: string };
    mails.set(invoiceId, (mails.get(invoiceId) ?? 0) + 1);
  }
  let issued = 0;
  for (const invoice of rows.invoices) {
    if (invoice.state === "stamping") {
      finding(
        "invoice-stuck",
        `${invoice.folio} (${invoice.payment_key}) still claimed after the run`,
      );
      continue;
    }
    if (invoice.state !== "issued" && invoice.state !== "cancelled") continue;
    issued += 1;
    const payment = paid.get(invoice.payment_key);
    if (!payment) {
      finding(
        "invoice-unpaid",
        `${invoice.folio} invoices ${invoice.payment_key}, which has no approved payment`,
      );
    } else if (invoice.total !== `${Number(payment.amount)}.00`) {
      finding("invoice-amount", `${invoice.folio}: total ${invoice.total}, paid ${payment.amount}`);
    }
    if (!invoice.has_xml) finding("invoice-missing", `${invoice.folio} issued without its XML`);
    const queued = mails.get(invoice.id) ?? 0;
    if (queued !== 1) finding("invoice-mail", `${invoice.folio}: ${queued} invoice e-mails queued`);
  }
  return {
    findings,
    checked: {
      invoicesAsked: ledger.invoices.length,
      invoicesShown: ledger.invoices.filter((told) => told.outcome === "told").length,
      invoicesIssued: issued,
    },
  };
}
