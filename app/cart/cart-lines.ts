import type { Plan } from "~/catalog/plan";
import { cartCount, cartTotal, type StoredCartItem } from "./cart";

export interface CartLine {
  plan: Plan;
  quantity: number;
  lineTotal: number;
}

export interface PricedCart {
  lines: CartLine[];
  count: number;
  total: number;
}

/**
 * The cart priced from the catalogue: the cookie only says which plans and how many. A plan no
 * longer on sale drops out of the cart.
 */
export function priceCart(
  items: readonly StoredCartItem[],
  findPlan: (id: string) => Plan | undefined,
): PricedCart {
  const lines: CartLine[] = [];
  for (const item of items) {
    const plan = findPlan(item.id);
    if (!plan) continue;
    lines.push({
      plan,
      quantity: item.quantity,
      lineTotal: cartTotal([{ id: plan.id, price: plan.price, quantity: item.quantity }]),
    });
  }
  const priced = lines.map((line) => ({
    id: line.plan.id,
    price: line.plan.price,
    quantity: line.quantity,
  }));
  return { lines, count: cartCount(priced), total: cartTotal(priced) };
}

/** A stable text form of the cart's contents, to tell whether two carts are the same. */
export function cartFingerprint(items: readonly StoredCartItem[]): string {
  return [...items]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((item) => `${item.id}*${item.quantity}`)
    .join(",");
}
