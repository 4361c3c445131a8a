import { useFetchers } from "react-router";
import type { StoredCartItem } from "~/cart/cart";
import { applyPendingCartSubmissions } from "~/cart/optimistic";

export const CART_ACTION = "/cart";

/** The cart items with every cart fetcher still in flight already applied (JavaScript only). */
export function useOptimisticCartItems(items: readonly StoredCartItem[]): StoredCartItem[] {
  const pending = useFetchers()
    .filter((fetcher) => fetcher.formData && fetcher.formAction?.split("?")[0] === CART_ACTION)
    .map((fetcher) => fetcher.formData as FormData);
  return applyPendingCartSubmissions(items, pending);
}
