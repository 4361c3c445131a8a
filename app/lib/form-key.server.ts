import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import * as z from "zod";
import { FORM_KEY_PATTERN } from "./form-key";
import type { SealedCookieSpec } from "./sealed-cookie.server";
import type { RequestContext } from "~/context";

/**
 * Every form's idempotency key, bound to the browser it was given to (decision 0086): a random
 * part (the nonce) signed with a secret kept in this browser's own sealed cookie, and with the
 * form it is for. The same form sent twice from this browser finds what the first sending made;
 * the key copied into another browser, or into another form, is refused there — it is no bearer
 * credential.
 *
 * Issued through the request's view tokens, so a page kept by the data it was rendered from
 * (decision 0077) gets this browser's key in every answer, like the CSP nonce.
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
export type FormKeyScope =
  | "checkout"
  | "portability"
  | "topup"
  | "line-code"
  | "registration"
  | "holder-proof"
  | "assisted-validation";

/** What a key's random part looks like (16 characters of base64url). */
export const FORM_KEY_NONCE_PATTERN = /^[\w-]{16}$/;

/** A new random part for a key: one per view of a form, or one per checkout draft. */
export function newFormKeyNonce(): string {
  return randomBytes(12).toString("base64url");
}

function signature(secret: string, scope: FormKeyScope, nonce: string): string {
  return createHmac("sha256", secret).update(`${scope}\n${nonce}`).digest("base64url").slice(0, 22);
}

/**
 * This browser's key for the form, signed for this browser (its secret is made on first use).
 * A new nonce each time unless one is given: checkout keeps its nonce in its draft, so the same
 * cart in the same browser keeps the same key.
 */
export function issueFormKey(
  context: RequestContext,
  scope: FormKeyScope,
  nonce: string = newFormKeyNonce(),
): string {
  let stored = context.jar.get(context.cookies.formKeys);
  if (!stored) {
    stored = { secret: randomBytes(16).toString("base64url") };
    // A prefetch's answer is never shown, but its cookie would replace the secret the page the
    // customer opens was signed with, when the two requests were sent together (a first visit):
    // that form's key would then be refused once.
    if (!context.isPrefetch) context.jar.set(context.cookies.formKeys, stored);
  }
  return context.newViewToken(`${nonce}.${signature(stored.secret, scope, nonce)}`);
}

/** Whether this browser was given `key` for this form. */
export function isOwnFormKey(context: RequestContext, scope: FormKeyScope, key: string): boolean {
  const stored = context.jar.get(context.cookies.formKeys);
  if (!stored || !FORM_KEY_PATTERN.test(key)) return false;
  const [nonce, given] = key.split(".");
  const expected = Buffer.from(signature(stored.secret, scope, nonce!));
  return timingSafeEqual(expected, Buffer.from(given!));
}

/** The random part of a well-formed key. */
export function formKeyNonce(key: string): string {
  return key.split(".")[0]!;
}
