/** Where the customer tops up: no account needed (signed in, saved lines are offered too). */
export const TOPUP_PATH = "/recarga";

/** The query parameter that fills the number in (`/recarga?numero=5512345678`). */
export const TOPUP_NUMBER_PARAM = "numero";

/** A top-up's receipt: its unguessable id is the address (decision 0066). */
export function receiptPath(topupId: string): string {
  return `${TOPUP_PATH}/${encodeURIComponent(topupId)}`;
}

/** The top-up's receipt (or its voucher, while unpaid) as a PDF: its key in the address, as the page. */
export function receiptPdfPath(topupId: string): string {
  return `${receiptPath(topupId)}/comprobante`;
}
