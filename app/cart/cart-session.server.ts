import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import type { StoredCartItem } from "./cart";

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

/** The cart in the request's cookie; absent, expired or tampered reads as empty. */
export function readCart(context: AppLoadContext, request: Request): StoredCartItem[] {
  return context.cookies.cart.read(request.headers.get("Cookie")) ?? [];
}

/** Set-Cookie headers that store `items` (an empty cart removes the cookie). */
export function cartCookieHeaders(
  context: AppLoadContext,
  request: Request,
  items: StoredCartItem[],
  headers = new Headers(),
): Headers {
  const cookieHeader = request.headers.get("Cookie");
  const cookies =
    items.length === 0
      ? context.cookies.cart.clear(cookieHeader)
      : context.cookies.cart.write(items, cookieHeader);
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}
