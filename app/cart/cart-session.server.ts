import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { StoredCartItem } from "./cart";
import type { RequestContext } from "~/context";

export const CART_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Only the items list (spec §3): ids and quantities, never a price. */
export const cartCookieSchema: z.ZodType<StoredCartItem[]> = z
  .array(
    z.object({
      id: z.string().min(1).max(64),
      quantity: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    }),
  )
  .max(100);

/** The customer's cart, with or without an account. */
export const cartCookieSpec: SealedCookieSpec<StoredCartItem[]> = {
  name: "cart",
  maxAgeSeconds: CART_COOKIE_MAX_AGE_SECONDS,
  schema: cartCookieSchema,
};

/** The cart of this request; absent, expired or tampered reads as empty. */
export function readCart(context: RequestContext): StoredCartItem[] {
  return context.jar.get(context.cookies.cart) ?? [];
}

/** Stores `items` (an empty cart removes the cookie). */
export function saveCart(context: RequestContext, items: StoredCartItem[]) {
  if (items.length === 0) context.jar.clear(context.cookies.cart);
  else context.jar.set(context.cookies.cart, items);
}
