import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import { PORTABILITY_FORM_KEY } from "./portability-schema";

/**
 * What this browser holds of portability: a secret its form keys are signed with, and the
 * requests it just submitted, so that the page after the redirect can show the folio, the line
 * and the e-mail address. A submitted request is shown for an hour; afterwards the customer uses
 * the status lookup (folio and number), which shows nothing personal.
 *
 * Each view of the form gets a new idempotency key, signed with this browser's secret: a key
 * copied into another browser opens nothing there (decision 0057).
 */
export interface PortabilityAccess {
  /** Random: revoked at sign-out, so a copy of the cookie opens nothing afterwards (0056). */
  accessId: string;
  formSecret: string;
  submitted: Array<{ id: string; at: number }>;
}

/** Long enough for a form left open for a while; the requests themselves show for an hour. */
export const PORTABILITY_ACCESS_MAX_AGE_SECONDS = 24 * 60 * 60;
const SUBMITTED_VISIBLE_MS = 60 * 60 * 1000;
const MAX_REMEMBERED_REQUESTS = 5;

export const portabilityAccessSchema: z.ZodType<PortabilityAccess> = z.object({
  accessId: z.string().min(16).max(64),
  formSecret: z.string().min(16).max(64),
  submitted: z
    .array(z.object({ id: z.string().min(16).max(64), at: z.number() }))
    .max(MAX_REMEMBERED_REQUESTS),
});

export const portabilityAccessCookieSpec: SealedCookieSpec<PortabilityAccess> = {
  name: "portabilidad",
  maxAgeSeconds: PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  schema: portabilityAccessSchema,
};

function readAccess(context: AppLoadContext): PortabilityAccess | null {
  return context.jar.get(context.cookies.portability);
}

function signature(secret: string, nonce: string): string {
  return createHmac("sha256", secret).update(nonce).digest("base64url").slice(0, 22);
}

/** The requests this browser submitted within the hour. */
export function readSubmittedRequests(context: AppLoadContext, now = Date.now()): string[] {
  return (readAccess(context)?.submitted ?? [])
    .filter((entry) => now - entry.at < SUBMITTED_VISIBLE_MS)
    .map((entry) => entry.id);
}

/** A new idempotency key for one view of the form, signed for this browser. */
export function portabilityFormKey(context: AppLoadContext): string {
  let access = readAccess(context);
  if (!access) {
    access = {
      accessId: randomBytes(16).toString("base64url"),
      formSecret: randomBytes(16).toString("base64url"),
      submitted: [],
    };
    context.jar.set(context.cookies.portability, access);
  }
  const nonce = randomBytes(12).toString("base64url");
  return `${nonce}.${signature(access.formSecret, nonce)}`;
}

/** Whether a submitted key was given to this browser. */
export function isOwnFormKey(context: AppLoadContext, key: string): boolean {
  const access = readAccess(context);
  if (!access || !PORTABILITY_FORM_KEY.test(key)) return false;
  const [nonce, given] = key.split(".");
  const expected = Buffer.from(signature(access.formSecret, nonce));
  return timingSafeEqual(expected, Buffer.from(given));
}

/** After a request is recorded: this browser may see it for an hour. */
export function rememberPortabilityRequest(context: AppLoadContext, id: string, now = Date.now()) {
  const access = readAccess(context);
  if (!access) return;
  context.jar.set(context.cookies.portability, {
    ...access,
    submitted: [...access.submitted.filter((entry) => entry.id !== id), { id, at: now }].slice(
      -MAX_REMEMBERED_REQUESTS,
    ),
  });
}
