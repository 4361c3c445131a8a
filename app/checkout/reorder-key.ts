import { createHash } from "node:crypto";

/**
 * The key under which the cart of a cancelled order is ordered again. Derived from the cancelled
 * order's key, so that the same form sent twice (a double click, a resubmission after going
 * back) finds the one new order rather than placing another each time: the form keeps its key,
 * which finds the end of the chain. As unguessable as the key it comes from; shaped as a UUID
 * (version 8), which no form key is, so a derived key is never taken for a form's.
 */
export function reorderKey(cancelledKey: string): string {
  const hex = createHash("sha256").update(`reorder:${cancelledKey}`).digest("hex");
  const variant = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The keys a cancelled chain of orders may have been re-placed under, nearest first. */
export function reorderKeys(formKey: string, depth: number): string[] {
  const keys: string[] = [];
  let key = formKey;
  for (let step = 0; step < depth; step++) keys.push((key = reorderKey(key)));
  return keys;
}
