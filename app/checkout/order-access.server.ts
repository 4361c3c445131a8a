import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";

/**
 * What this browser may see and resume: the orders it placed (their unguessable references) and
 * the idempotency key of the checkout in progress, tied to the cart it was issued for.
 */
export interface OrderAccess {
  placed: Array<{ ref: string; cartCleared: boolean }>;
  draft: { key: string; cart: string } | null;
}

const MAX_REMEMBERED_ORDERS = 20;
export const ORDER_ACCESS_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

export const orderAccessSchema: z.ZodType<OrderAccess> = z.object({
  placed: z
    .array(z.object({ ref: z.string().min(16).max(64), cartCleared: z.boolean() }))
    .max(MAX_REMEMBERED_ORDERS),
  draft: z.object({ key: z.uuid(), cart: z.string().max(4000) }).nullable(),
});

export function readOrderAccess(context: AppLoadContext): OrderAccess {
  return context.jar.get(context.cookies.orderAccess) ?? { placed: [], draft: null };
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
    placed: access.placed.map((entry) =>
      entry.ref === ref ? { ...entry, cartCleared: true } : entry,
    ),
    draft: null,
  };
}

export function saveOrderAccess(context: AppLoadContext, access: OrderAccess) {
  context.jar.set(context.cookies.orderAccess, access);
}
