import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { Payment } from "../payments.server";
import type { RequestContext } from "~/context";

/**
 * Who may act on the sandbox's payment page (`/sandbox/pago/<id>`: pay by card, simulate a
 * voucher paid or a transfer received, or their expiry), decision 0081. In development and tests
 * anyone who has the address may, as a developer needs. In production — a test environment the
 * operator allowed (decision 0058) — only the browser the store sent to pay: the checkout ids it
 * was sent to are kept in a sealed cookie of the sandbox's own, written when the store begins or
 * resumes the payment. A checkout id shown on an order's page, a receipt or a lookup opens
 * nothing elsewhere.
 */
export interface SandboxPayer {
  /** Random: revoked at sign-out like every access cookie, so a saved copy opens nothing (0056). */
  accessId: string;
  /** The sandbox checkouts this browser was sent to pay, oldest first. */
  checkouts: string[];
}

const MAX_REMEMBERED_CHECKOUTS = 20;
/** The longest a voucher can stay payable (PAYMENT_VOUCHER_HOURS, 7 days), and a day more. */
export const SANDBOX_PAYER_MAX_AGE_SECONDS = 8 * 24 * 60 * 60;

export const sandboxPayerSchema: z.ZodType<SandboxPayer> = z.object({
  accessId: z.string().min(16).max(64),
  checkouts: z.array(z.string().min(8).max(64)).max(MAX_REMEMBERED_CHECKOUTS),
});

/** The sandbox checkouts the store sent this browser to pay (decision 0081). */
export const sandboxPayerCookieSpec: SealedCookieSpec<SandboxPayer> = {
  name: "sandbox_pagos",
  maxAgeSeconds: SANDBOX_PAYER_MAX_AGE_SECONDS,
  schema: sandboxPayerSchema,
};

/** Adds a checkout; the oldest is forgotten past the limit. */
export function rememberCheckout(payer: SandboxPayer, checkoutId: string): SandboxPayer {
  if (payer.checkouts.includes(checkoutId)) return payer;
  return {
    ...payer,
    checkouts: [...payer.checkouts, checkoutId].slice(-MAX_REMEMBERED_CHECKOUTS),
  };
}

/** The rule: anyone outside production; in production only the browser sent to pay it. */
export function mayUseCheckoutPage(
  environment: { isProduction: boolean },
  payer: SandboxPayer | null,
  checkoutId: string,
): boolean {
  return !environment.isProduction || Boolean(payer?.checkouts.includes(checkoutId));
}

export function mayUseSandboxPage(context: RequestContext, checkoutId: string): boolean {
  return mayUseCheckoutPage(
    context.config,
    context.jar.get(context.cookies.sandboxPayer),
    checkoutId,
  );
}

/** This browser is being sent to pay this payment: with the sandbox, it may use its page. */
export function rememberSandboxPayer(context: RequestContext, payment: Payment) {
  if (payment.provider !== "sandbox" || !payment.provider_reference) return;
  const payer = context.jar.get(context.cookies.sandboxPayer) ?? {
    accessId: randomBytes(16).toString("base64url"),
    checkouts: [],
  };
  const next = rememberCheckout(payer, payment.provider_reference);
  if (next !== payer) context.jar.set(context.cookies.sandboxPayer, next);
}
