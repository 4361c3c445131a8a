/** A top-up's receipt: its folio, always together with its owner's session. */
export function receiptPath(folio: string): string {
  return `/my-account/recarga/${encodeURIComponent(folio)}`;
}
