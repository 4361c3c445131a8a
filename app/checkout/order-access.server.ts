import { randomBytes } from "node:crypto";
import * as z from "zod";
import { cartFingerprint } from "~/cart/cart-lines";
import type { StoredCartItem } from "~/cart/cart";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import { CONFIRMATION_PATHNAME } from "./paths";
import {
  FORM_KEY_NONCE_PATTERN,
  formKeyNonce,
  issueFormKey,
  newFormKeyNonce,
} from "~/lib/form-key.server";
import type { RequestContext } from "~/context";

/**
 * What this browser may see and resume: the orders it placed (their unguessable references) and
 * the checkout in progress: the random part of its form key, tied to the cart it was issued for.
 */
export interface OrderAccess {
  /** Random: revoked at sign-out, so a copy of the cookie opens nothing afterwards (0056). */
  accessId: string;
  placed: Array<{ ref: string; cartCleared: boolean }>;
  draft: { nonce: string; cart: string } | null;
}

const MAX_REMEMBERED_ORDERS = 20;
export const ORDER_ACCESS_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

export const orderAccessSchema: z.ZodType<OrderAccess> = z.object({
  accessId: z.string().min(16).max(64),
  placed: z
    .array(z.object({ ref: z.string().min(16).max(64), cartCleared: z.boolean() }))
    .max(MAX_REMEMBERED_ORDERS),
  draft: z
    .union([
      z.object({ nonce: z.string().regex(FORM_KEY_NONCE_PATTERN), cart: z.string().max(4000) }),
      // A draft from before decision 0086 (its key a UUID) reads as none: the orders placed
      // stay visible, and the open form gets one 409 and a key of the new shape.
      z.object({ key: z.uuid(), cart: z.string().max(4000) }).transform(() => null),
    ])
    .nullable(),
});

export const orderAccessCookieSpec: SealedCookieSpec<OrderAccess> = {
  name: "orders",
  maxAgeSeconds: ORDER_ACCESS_MAX_AGE_SECONDS,
  schema: orderAccessSchema,
};

export function readOrderAccess(context: RequestContext): OrderAccess {
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

/** On the order's first view here: the cart was emptied once, and the next checkout starts afresh. */
export function markCartCleared(access: OrderAccess, ref: string): OrderAccess {
  return {
    accessId: access.accessId,
    placed: access.placed.map((entry) =>
      entry.ref === ref ? { ...entry, cartCleared: true } : entry,
    ),
    draft: null,
  };
}

/**
 * This address is the first view here of an order this browser placed: its page empties the cart
 * and redirects to itself (decision 0105), so a message waiting for it (the flash) is for the view
 * after that redirect. With JavaScript the root's data is fetched apart from the page's, and
 * taking the message there would lose it before the page is shown.
 */
export function emptiesCartFirst(context: RequestContext, url: URL): boolean {
  const ref = url.pathname === CONFIRMATION_PATHNAME ? url.searchParams.get("pedido") : null;
  if (!ref) return false;
  return readOrderAccess(context).placed.some((entry) => entry.ref === ref && !entry.cartCleared);
}

export function saveOrderAccess(context: RequestContext, access: OrderAccess) {
  context.jar.set(context.cookies.orderAccess, access);
}

/**
 * The idempotency key of this browser's checkout of these items: the same as long as the cart is
 * the same, so a form submitted again (after going back, after a reload, from a second tab) finds
 * the order the first submission created; a different cart gets a new key, and so a new order.
 * The shared form key (decision 0086), its random part kept as this browser's draft.
 */
export function checkoutKey(context: RequestContext, items: StoredCartItem[]): string {
  const access = readOrderAccess(context);
  const cart = cartFingerprint(items);
  if (access.draft?.cart === cart) return issueFormKey(context, "checkout", access.draft.nonce);
  const nonce = newFormKeyNonce();
  saveOrderAccess(context, { ...access, draft: { nonce, cart } });
  return issueFormKey(context, "checkout", nonce);
}

/** Whether `key` (already this browser's own) is the key of its checkout in progress. */
export function isDraftKey(access: OrderAccess, key: string): boolean {
  return access.draft !== null && access.draft.nonce === formKeyNonce(key);
}
