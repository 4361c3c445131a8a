import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import * as z from "zod";

/**
 * What this browser holds of portability: the idempotency key of the form it was given, and the
 * requests it just submitted, so that the page after the redirect can show the folio, the line
 * and the e-mail address. A submitted request is shown for an hour; afterwards the customer uses
 * the status lookup (folio and number), which shows nothing personal.
 *
 * The key is kept here, not only in the form, so that a key copied into another browser opens
 * nothing there (decision 0057).
 */
export interface PortabilityAccess {
  formKey: string | null;
  submitted: Array<{ id: string; at: number }>;
}

/** Long enough for a form left open for a while; the requests themselves show for an hour. */
export const PORTABILITY_ACCESS_MAX_AGE_SECONDS = 24 * 60 * 60;
const SUBMITTED_VISIBLE_MS = 60 * 60 * 1000;
const MAX_REMEMBERED_REQUESTS = 5;

export const portabilityAccessSchema: z.ZodType<PortabilityAccess> = z.object({
  formKey: z.uuid().nullable(),
  submitted: z
    .array(z.object({ id: z.string().min(16).max(64), at: z.number() }))
    .max(MAX_REMEMBERED_REQUESTS),
});

function readAccess(context: AppLoadContext): PortabilityAccess {
  return context.jar.get(context.cookies.portability) ?? { formKey: null, submitted: [] };
}

/** The requests this browser submitted within the hour. */
export function readSubmittedRequests(context: AppLoadContext, now = Date.now()): string[] {
  return readAccess(context)
    .submitted.filter((entry) => now - entry.at < SUBMITTED_VISIBLE_MS)
    .map((entry) => entry.id);
}

/** The idempotency key of this browser's portability form, issued on its first visit. */
export function portabilityFormKey(context: AppLoadContext): string {
  const access = readAccess(context);
  if (access.formKey) return access.formKey;
  const formKey = randomUUID();
  context.jar.set(context.cookies.portability, { ...access, formKey });
  return formKey;
}

/** Whether a submitted key is the one this browser was given. */
export function isOwnFormKey(context: AppLoadContext, key: string): boolean {
  return readAccess(context).formKey === key;
}

/**
 * After a request is recorded: this browser may see it, and its next request gets a new key.
 */
export function rememberPortabilityRequest(context: AppLoadContext, id: string, now = Date.now()) {
  const { submitted } = readAccess(context);
  context.jar.set(context.cookies.portability, {
    formKey: randomUUID(),
    submitted: [...submitted.filter((entry) => entry.id !== id), { id, at: now }].slice(
      -MAX_REMEMBERED_REQUESTS,
    ),
  });
}
