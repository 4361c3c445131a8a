/** Where a purchase is invoiced: with the key that opens it (the order's reference, the receipt's id). */
export const INVOICING_PATH = "/facturacion";

export function invoicePath(purchase: { kind: "order" | "topup"; ref: string }): string {
  const param = purchase.kind === "order" ? "pedido" : "recarga";
  return `${INVOICING_PATH}?${param}=${encodeURIComponent(purchase.ref)}`;
}

export type InvoiceFormat = "xml" | "pdf";

/** The invoice's XML or PDF, for whoever may see the purchase. */
export function invoiceDownloadPath(
  purchase: { kind: "order" | "topup"; ref: string },
  format: InvoiceFormat,
): string {
  const param = purchase.kind === "order" ? "pedido" : "recarga";
  return `${INVOICING_PATH}/descargar?${param}=${encodeURIComponent(purchase.ref)}&formato=${format}`;
}

/** The lookup by folio, filled in from an e-mail's link. */
export function invoiceLookupPath(folio: string): string {
  return `${INVOICING_PATH}?folio=${encodeURIComponent(folio)}`;
}
