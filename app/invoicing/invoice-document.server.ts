import type { Invoice } from "./invoices.server";
import { invoicePdf, type InvoiceDocument } from "./invoice-pdf.server";

/**
 * An issued (or cancelled) invoice's files: its stamped XML as recorded, and its PDF printed from
 * the CFDI it was built from and its seal; null while it is not issued.
 */
export function invoiceDocument(
  invoice: Invoice,
): (InvoiceDocument & { xml: string; pdf: () => Promise<Buffer> }) | null {
  if (!invoice.uuid || !invoice.cfdi || !invoice.stamp || !invoice.issuedAt || !invoice.xml) {
    return null;
  }
  const document: InvoiceDocument = {
    folio: invoice.folio,
    uuid: invoice.uuid,
    purchaseFolio: invoice.purchaseFolio,
    cfdi: invoice.cfdi,
    stamp: invoice.stamp,
    issuedAt: invoice.issuedAt,
    cancellation: invoice.cancellation?.status ?? null,
  };
  return { ...document, xml: invoice.xml, pdf: () => invoicePdf(document) };
}
