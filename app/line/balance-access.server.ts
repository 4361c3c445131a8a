import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { RequestContext } from "~/context";

/**
 * What one browser holds of /saldo: its own random id (whose codes are its own), the number
 * waiting for its code, and the number it proved, shown for BALANCE_SHOWN_MS. Nothing is shown
 * to another browser, and nothing outlives the quarter hour.
 */
export interface BalanceAccess {
  holder: string;
  /** The number a code was asked for, waiting for it. */
  pending: string | null;
  /** The number proved, and until when (epoch ms) its balance is shown. */
  shown: { number: string; until: number } | null;
}

export const BALANCE_SHOWN_MS = 15 * 60 * 1000;

const tenDigits = z.string().regex(/^\d{10}$/);

export const balanceAccessSchema: z.ZodType<BalanceAccess> = z.object({
  holder: z.string().min(16).max(64),
  pending: tenDigits.nullable(),
  shown: z.object({ number: tenDigits, until: z.number() }).nullable(),
});

export const balanceAccessCookieSpec: SealedCookieSpec<BalanceAccess> = {
  name: "saldo",
  maxAgeSeconds: BALANCE_SHOWN_MS / 1000,
  schema: balanceAccessSchema,
};

export function readBalanceAccess(context: RequestContext): BalanceAccess | null {
  return context.jar.get(context.cookies.balance);
}

/** This browser's access, or a new one with an id of its own. */
export function balanceAccessOrNew(context: RequestContext): BalanceAccess {
  return (
    readBalanceAccess(context) ?? {
      holder: randomBytes(16).toString("base64url"),
      pending: null,
      shown: null,
    }
  );
}

export function saveBalanceAccess(context: RequestContext, access: BalanceAccess) {
  context.jar.set(context.cookies.balance, access);
}

export function forgetBalanceAccess(context: RequestContext) {
  context.jar.clear(context.cookies.balance);
}

/** The number whose balance this browser may see now, or null. */
export function shownNumber(access: BalanceAccess | null, now: number): string | null {
  return access?.shown && access.shown.until > now ? access.shown.number : null;
}
