import { applyCartIntent, isCartIntent, type StoredCartItem } from "./cart";

/**
 * The cart as it will be once the submissions still in flight are done: the server's items with
 * each pending POST /cart applied in order by the same rules the server uses.
 */
export function applyPendingCartSubmissions(
  items: readonly StoredCartItem[],
  submissions: ReadonlyArray<FormData>,
): StoredCartItem[] {
  let result = [...items];
  for (const form of submissions) {
    const intent = form.get("intent");
    const id = form.get("id");
    if (!isCartIntent(intent)) continue;
    if (intent !== "clear" && typeof id !== "string") continue;
    result = applyCartIntent(result, intent, typeof id === "string" ? id : "");
  }
  return result;
}
