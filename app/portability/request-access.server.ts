import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { RequestContext } from "~/context";

/**
 * What this browser holds of portability: the requests it just submitted, so that the page after
 * the redirect can show the folio, the line and the e-mail address. A submitted request is shown
 * for an hour; afterwards the customer uses the status lookup (folio and number), which shows
 * nothing personal. The form's keys are the shared ones (decision 0086), not kept here.
 */
export interface PortabilityAccess {
  /** Random: revoked at sign-out, so a copy of the cookie opens nothing afterwards (0056). */
  accessId: string;
  submitted: Array<{ id: string; at: number }>;
}

/** The requests themselves show for an hour; the cookie outlives them by a day at most. */
export const PORTABILITY_ACCESS_MAX_AGE_SECONDS = 24 * 60 * 60;
const SUBMITTED_VISIBLE_MS = 60 * 60 * 1000;
/** As many as one order may keep (MAX_PORT_INS): its page remembers each of them. */
const MAX_REMEMBERED_REQUESTS = 10;

/** A cookie from before decision 0086 also holds the form's secret: left out when read. */
export const portabilityAccessSchema: z.ZodType<PortabilityAccess> = z.object({
  accessId: z.string().min(16).max(64),
  submitted: z
    .array(z.object({ id: z.string().min(16).max(64), at: z.number() }))
    .max(MAX_REMEMBERED_REQUESTS),
});

export const portabilityAccessCookieSpec: SealedCookieSpec<PortabilityAccess> = {
  name: "portabilidad",
  maxAgeSeconds: PORTABILITY_ACCESS_MAX_AGE_SECONDS,
  schema: portabilityAccessSchema,
};

function readAccess(context: RequestContext): PortabilityAccess | null {
  return context.jar.get(context.cookies.portability);
}

/** The requests this browser submitted within the hour. */
export function readSubmittedRequests(context: RequestContext, now = Date.now()): string[] {
  return (readAccess(context)?.submitted ?? [])
    .filter((entry) => now - entry.at < SUBMITTED_VISIBLE_MS)
    .map((entry) => entry.id);
}

/** After a request is recorded: this browser may see it for an hour. */
export function rememberPortabilityRequest(context: RequestContext, id: string, now = Date.now()) {
  const access = readAccess(context) ?? {
    accessId: randomBytes(16).toString("base64url"),
    submitted: [],
  };
  context.jar.set(context.cookies.portability, {
    ...access,
    submitted: [...access.submitted.filter((entry) => entry.id !== id), { id, at: now }].slice(
      -MAX_REMEMBERED_REQUESTS,
    ),
  });
}
