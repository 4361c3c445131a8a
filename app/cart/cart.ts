/**
 * The cart's rules (spec §4 and §5), pure so that the server, the optimistic browser view and
 * the tests share them.
 */

/** What the cart cookie keeps: the plan id and how many. Never a price. */
export interface StoredCartItem {
  id: string;
  quantity: number;
}

/** A cart item as the spec describes it: the price may be a number or a numeric string. */
export interface CartItem extends StoredCartItem {
  price: number | string;
}

export const CART_INTENTS = ["add", "increment", "decrement", "remove", "clear"] as const;
export type CartIntent = (typeof CART_INTENTS)[number];

export function isCartIntent(value: unknown): value is CartIntent {
  return (CART_INTENTS as readonly unknown[]).includes(value);
}

/** Adding an id already in the cart increments it; otherwise it joins with quantity 1. */
export function addItem<T extends StoredCartItem>(
  items: readonly T[],
  item: Omit<T, "quantity">,
): T[] {
  if (items.some((existing) => existing.id === item.id)) return incrementItem(items, item.id);
  return [...items, { ...item, quantity: 1 } as T];
}

export function incrementItem<T extends StoredCartItem>(items: readonly T[], id: string): T[] {
  return items.map((item) => (item.id === id ? { ...item, quantity: item.quantity + 1 } : item));
}

/** At quantity 1, decrementing removes the item. */
export function decrementItem<T extends StoredCartItem>(items: readonly T[], id: string): T[] {
  return items.flatMap((item) => {
    if (item.id !== id) return [item];
    return item.quantity <= 1 ? [] : [{ ...item, quantity: item.quantity - 1 }];
  });
}

export function removeItem<T extends StoredCartItem>(items: readonly T[], id: string): T[] {
  return items.filter((item) => item.id !== id);
}

export function clearCart<T extends StoredCartItem>(_items: readonly T[]): T[] {
  return [];
}

/** One cart action applied to the stored items (the action of POST /cart, and its optimistic twin). */
export function applyCartIntent(
  items: readonly StoredCartItem[],
  intent: CartIntent,
  id: string,
): StoredCartItem[] {
  switch (intent) {
    case "add":
      return addItem(items, { id });
    case "increment":
      return incrementItem(items, id);
    case "decrement":
      return decrementItem(items, id);
    case "remove":
      return removeItem(items, id);
    case "clear":
      return clearCart(items);
  }
}

/** Count = sum of quantities. */
export function cartCount(items: readonly StoredCartItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/**
 * The price as the spec reads it: parsed as an integer ("199.90" → 199). Text that is not a
 * number counts as 0 rather than turning the whole total into NaN.
 */
export function integerPrice(price: number | string): number {
  const parsed = parseInt(String(price), 10);
  return Number.isNaN(parsed) ? 0 : parsed;
}

/** Total = sum of quantity × integer-parsed price. */
export function cartTotal(items: readonly CartItem[]): number {
  return items.reduce((sum, item) => sum + item.quantity * integerPrice(item.price), 0);
}

/** What POST /cart answers a fetcher (JavaScript) instead of redirecting. */
export interface CartActionData {
  ok: boolean;
  error: string | null;
}
