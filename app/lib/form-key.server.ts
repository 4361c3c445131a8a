import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import { FORM_KEY_PATTERN } from "./form-key";
import type { SealedCookieSpec } from "./sealed-cookie.server";

/**
 * A form's idempotency key, bound to the browser it was given to (decision 0057, 0082): a random
 * part signed with a secret kept in this browser's own sealed cookie, and with the form it is for.
 * The same form sent twice from this browser finds what the first sending made; the key copied
 * into another browser, or into another form, is refused there — it is no bearer credential.
 *
 * Issued through the request's view tokens, so a page kept by the data it was rendered from
 * (decision 0077) gets a fresh key in every answer, like the CSP nonce.
 */
export interface FormKeySecret {
  secret: string;
}

/** Long enough for a form left open for days; an expired secret only means one 409 and a new key. */
export const FORM_KEY_SECRET_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

export const formKeySecretSchema: z.ZodType<FormKeySecret> = z.object({
  secret: z.string().min(16).max(64),
});

/** This browser's secret that its forms' idempotency keys are signed with (0082). */
export const formKeysCookieSpec: SealedCookieSpec<FormKeySecret> = {
  name: "form_keys",
  maxAgeSeconds: FORM_KEY_SECRET_MAX_AGE_SECONDS,
  schema: formKeySecretSchema,
};

/** The forms whose keys are issued here; a key is good for its own form only. */
export type FormKeyScope = "topup";

function signature(secret: string, scope: FormKeyScope, nonce: string): string {
  return createHmac("sha256", secret).update(`${scope}\n${nonce}`).digest("base64url").slice(0, 22);
}

/** A new key for one view of the form, signed for this browser (its secret is made on first use). */
export function issueFormKey(context: AppLoadContext, scope: FormKeyScope): string {
  let stored = context.jar.get(context.cookies.formKeys);
  if (!stored) {
    stored = { secret: randomBytes(16).toString("base64url") };
    context.jar.set(context.cookies.formKeys, stored);
  }
  const nonce = randomBytes(12).toString("base64url");
  return context.newViewToken(`${nonce}.${signature(stored.secret, scope, nonce)}`);
}

/** Whether this browser was given `key` for this form. */
export function isOwnFormKey(context: AppLoadContext, scope: FormKeyScope, key: string): boolean {
  const stored = context.jar.get(context.cookies.formKeys);
  if (!stored || !FORM_KEY_PATTERN.test(key)) return false;
  const [nonce, given] = key.split(".");
  const expected = Buffer.from(signature(stored.secret, scope, nonce!));
  return timingSafeEqual(expected, Buffer.from(given!));
}
