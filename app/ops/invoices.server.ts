import type { Db } from "~/db/db.server";
import { maskRfc } from "~/invoicing/fiscal-data";
import {
  cancelInvoice,
  listInvoices,
  type CancelInput,
  type CancelResult,
  type Invoice,
} from "~/invoicing/invoices.server";
import type { InvoiceProvider } from "~/invoicing/provider";
import { CANCELLATION_MOTIVES, isCancellationMotive } from "~/invoicing/sat-catalogs";
import { mexicoCityDateTime, mexicoCityRange } from "~/lib/mexico-city-days";
import type { Column } from "./format";
import { INVOICE_STATE_NAMES } from "./labels";

/**
 * The operator's side of the invoices (issue 29): `npm run ops -- facturas` lists them and
 * `cancelar-factura` cancels one at the PAC with one of SAT's reasons; both call app/invoicing,
 * which owns the table (decision 0085).
 */

export const INVOICE_STATE_WORDS: Record<string, "issued" | "cancelled" | "waiting"> = {
  vigente: "issued",
  vigentes: "issued",
  cancelada: "cancelled",
  canceladas: "cancelled",
  "sin-emitir": "waiting",
};

export function listInvoiceRows(
  db: Db,
  filter: { from?: string; to?: string; state?: "issued" | "cancelled" | "waiting" },
): Promise<Invoice[]> {
  return listInvoices(db, { ...mexicoCityRange(filter), state: filter.state });
}

const at = (iso: string | null) => (iso ? mexicoCityDateTime(iso) : null);

function stateOf(invoice: Invoice): string {
  if (invoice.cancellation?.status === "pending") return INVOICE_STATE_NAMES.cancelling;
  return INVOICE_STATE_NAMES[invoice.state] ?? invoice.state;
}

/** The RFC masked on the terminal; whole in the CSV the operator asked for (an invoice names it). */
export const INVOICE_COLUMNS: Column<Invoice>[] = [
  { header: "Factura", csv: (row) => row.folio, table: (row) => row.folio },
  { header: "Emitida", csv: (row) => at(row.issuedAt), table: (row) => at(row.issuedAt) ?? "—" },
  { header: "Estado", csv: stateOf, table: stateOf },
  { header: "Compra", csv: (row) => row.purchaseFolio, table: (row) => row.purchaseFolio },
  { header: "UUID", csv: (row) => row.uuid, table: (row) => row.uuid ?? "—" },
  {
    header: "RFC",
    csv: (row) => row.receiver?.rfc ?? null,
    table: (row) => (row.receiver ? maskRfc(row.receiver.rfc) : "—"),
  },
  { header: "Nombre", csv: (row) => row.receiver?.name ?? null },
  { header: "Régimen", csv: (row) => row.receiver?.regimen ?? null },
  { header: "Uso", csv: (row) => row.receiver?.uso ?? null },
  { header: "Forma de pago", csv: (row) => row.formaPago },
  { header: "Total", csv: (row) => row.total, table: (row) => row.total ?? "—", right: true },
  { header: "PAC", csv: (row) => row.provider, table: (row) => row.provider ?? "—" },
  { header: "Motivo de cancelación", csv: (row) => row.cancellation?.motive ?? null },
  { header: "Sustituye", csv: (row) => row.cancellation?.substituteUuid ?? null },
  { header: "Cancelada el", csv: (row) => at(row.cancellation?.at ?? null) },
];

export function cancellationMotiveOf(value: string | undefined): CancelInput["motive"] | null {
  const motive = value?.trim();
  return motive && isCancellationMotive(motive) ? motive : null;
}

export function cancelInvoiceForOperator(
  db: Db,
  provider: InvoiceProvider,
  key: string,
  input: CancelInput,
): Promise<CancelResult> {
  return cancelInvoice(db, provider, key, input);
}

/** What the operator is told after a cancellation. */
export function invoiceCancellationText(result: Extract<CancelResult, { ok: true }>): string {
  const { invoice } = result;
  const motive = invoice.cancellation?.motive ?? "";
  const lines = [
    result.status === "accepted"
      ? `Factura ${invoice.folio} (UUID ${invoice.uuid}) cancelada ante el SAT.`
      : `Factura ${invoice.folio} (UUID ${invoice.uuid}): cancelación solicitada; el SAT espera que el receptor la acepte.`,
    `Motivo: ${motive} ${CANCELLATION_MOTIVES[motive as keyof typeof CANCELLATION_MOTIVES] ?? ""}`.trimEnd(),
    ...(invoice.cancellation?.substituteUuid
      ? [`La sustituye: ${invoice.cancellation.substituteUuid}`]
      : []),
    `El cliente lo ve en /facturacion y en el PDF. Registrado en el historial.`,
  ];
  return lines.map((line) => `${line}\n`).join("");
}
