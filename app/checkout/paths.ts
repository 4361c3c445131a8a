export const CONFIRMATION_PATHNAME = "/confirmation";

/** The order's page: reachable with its unguessable reference (decision 0014). */
export function confirmationPath(ref: string): string {
  return `${CONFIRMATION_PATHNAME}?pedido=${encodeURIComponent(ref)}`;
}

/** Where a one-time order link opens (decision 0082): the secret in the query, out of every log. */
export const ORDER_LINK_PATH = "/pedido/abrir";

export function orderLinkPath(token: string): string {
  return `${ORDER_LINK_PATH}?clave=${encodeURIComponent(token)}`;
}

/** The cancelled order's button that puts its plans back in the cart. */
export const ORDER_AGAIN_INTENT = "order-again";

/** The order's receipt (or its voucher, while unpaid) as a PDF: for whoever may see the order. */
export function orderReceiptPdfPath(ref: string): string {
  return `${CONFIRMATION_PATHNAME}/comprobante?pedido=${encodeURIComponent(ref)}`;
}
