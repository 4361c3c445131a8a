import { randomBytes, randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import { cartFingerprint } from "~/cart/cart-lines";
import type { StoredCartItem } from "~/cart/cart";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";

/**
 * What this browser may see and resume: the orders it placed (their unguessable references) and
 * the idempotency key of the checkout in progress, tied to the cart it was issued for.
 */
export interface OrderAccess {
  /** Random: revoked at sign-out, so a copy of the cookie opens nothing afterwards (0056). */
  accessId: string;
  placed: Array<{ ref: string; cartCleared: boolean }>;
  draft: { key: string; cart: string } | null;
}

const MAX_REMEMBERED_ORDERS = 20;
export const ORDER_ACCESS_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

export const orderAccessSchema: z.ZodType<OrderAccess> = z.object({
  accessId: z.string().min(16).max(64),
  placed: z
    .array(z.object({ ref: z.string().min(16).max(64), cartCleared: z.boolean() }))
    .max(MAX_REMEMBERED_ORDERS),
  draft: z.object({ key: z.uuid(), cart: z.string().max(4000) }).nullable(),
});

export const orderAccessCookieSpec: SealedCookieSpec<OrderAccess> = {
  name: "orders",
  maxAgeSeconds: ORDER_ACCESS_MAX_AGE_SECONDS,
  schema: orderAccessSchema,
};

export function readOrderAccess(context: AppLoadContext): OrderAccess {
  return (
    context.jar.get(context.cookies.orderAccess) ?? {
      accessId: randomBytes(16).toString("base64url"),
      placed: [],
      draft: null,
    }
  );
}

export function canSeeOrder(access: OrderAccess, ref: string): boolean {
  return access.placed.some((entry) => entry.ref === ref);
}

/** Remembers an order placed here; the oldest is forgotten past the limit. */
export function rememberOrder(access: OrderAccess, ref: string): OrderAccess {
  if (canSeeOrder(access, ref)) return access;
  const placed = [...access.placed, { ref, cartCleared: false }].slice(-MAX_REMEMBERED_ORDERS);
  return { ...access, placed };
}

/** After an approved payment: the cart was emptied once, and the next checkout starts afresh. */
export function markCartCleared(access: OrderAccess, ref: string): OrderAccess {
  return {
    accessId: access.accessId,
    placed: access.placed.map((entry) =>
      entry.ref === ref ? { ...entry, cartCleared: true } : entry,
    ),
    draft: null,
  };
}

export function saveOrderAccess(context: AppLoadContext, access: OrderAccess) {
  context.jar.set(context.cookies.orderAccess, access);
}

/** This browser's checkout of these items goes on under `key` (a cancelled order's cart bought again). */
export function continueCheckout(
  access: OrderAccess,
  key: string,
  items: StoredCartItem[],
): OrderAccess {
  return { ...access, draft: { key, cart: cartFingerprint(items) } };
}

/**
 * The idempotency key of this browser's checkout of these items: the same as long as the cart is
 * the same, so a form submitted again (after going back, after a reload, from a second tab) finds
 * the order the first submission created; a different cart gets a new key, and so a new order.
 * It is kept in the browser's cookie: a key it was not given opens nothing (decision 0057).
 */
export function checkoutKey(context: AppLoadContext, items: StoredCartItem[]): string {
  const access = readOrderAccess(context);
  const cart = cartFingerprint(items);
  if (access.draft?.cart === cart) return access.draft.key;
  const key = randomUUID();
  saveOrderAccess(context, { ...access, draft: { key, cart } });
  return key;
}
