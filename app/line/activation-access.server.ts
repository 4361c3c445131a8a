import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { RequestContext } from "~/context";

/**
 * What this browser holds of the SIMs activated from it at /activar: their activations' job ids,
 * so that the page shows each one "activando" and then its number — after a refresh, without
 * the ICCID in any address. Shown for a day; signing out revokes it like every access cookie.
 */
export interface ActivationAccess {
  /** Random: revoked at sign-out, so a copy of the cookie opens nothing afterwards (0056). */
  accessId: string;
  started: Array<{ id: string; at: number }>;
}

export const ACTIVATION_ACCESS_MAX_AGE_SECONDS = 24 * 60 * 60;
const STARTED_VISIBLE_MS = ACTIVATION_ACCESS_MAX_AGE_SECONDS * 1000;
const MAX_REMEMBERED_ACTIVATIONS = 5;

export const activationAccessSchema: z.ZodType<ActivationAccess> = z.object({
  accessId: z.string().min(16).max(64),
  started: z
    .array(z.object({ id: z.string().min(1).max(200), at: z.number() }))
    .max(MAX_REMEMBERED_ACTIVATIONS),
});

export const activationAccessCookieSpec: SealedCookieSpec<ActivationAccess> = {
  name: "activaciones",
  maxAgeSeconds: ACTIVATION_ACCESS_MAX_AGE_SECONDS,
  schema: activationAccessSchema,
};

function readAccess(context: RequestContext): ActivationAccess | null {
  return context.jar.get(context.cookies.activations);
}

/** The activations this browser started within the day, the latest first. */
export function readStartedActivations(context: RequestContext, now = Date.now()): string[] {
  return (readAccess(context)?.started ?? [])
    .filter((entry) => now - entry.at < STARTED_VISIBLE_MS)
    .map((entry) => entry.id)
    .reverse();
}

/** After an activation is queued (or found queued): this browser may follow it for a day. */
export function rememberActivation(context: RequestContext, id: string, now = Date.now()) {
  const access = readAccess(context) ?? {
    accessId: randomBytes(16).toString("base64url"),
    started: [],
  };
  context.jar.set(context.cookies.activations, {
    ...access,
    started: [...access.started.filter((entry) => entry.id !== id), { id, at: now }].slice(
      -MAX_REMEMBERED_ACTIVATIONS,
    ),
  });
}
