import { randomBytes } from "node:crypto";
import * as z from "zod";
import type { SealedCookieSpec } from "~/lib/sealed-cookie.server";
import type { RequestContext } from "~/context";

/**
 * What one browser holds of /registro-de-linea: its own random id (whose codes are its own), the
 * number waiting for its code, the number it proved (good for REGISTRATION_PROOF_MS), and the
 * registration it just made (its id: the page shows its folio from the database). Never the
 * holder's name or CURP: those travel only in the form that registers.
 */
export interface RegistrationAccess {
  holder: string;
  /** The number a code was asked for, waiting for it. */
  pending: string | null;
  /** The number proved, and until when (epoch ms) its holder may be registered here. */
  proved: { number: string; until: number } | null;
  /** The registration this browser made, shown until `until` (epoch ms). */
  registered: { id: string; until: number } | null;
}

/** A quarter of an hour, as /saldo: long enough to find the ID and type the CURP. */
export const REGISTRATION_PROOF_MS = 15 * 60 * 1000;

const tenDigits = z.string().regex(/^\d{10}$/);

export const registrationAccessSchema: z.ZodType<RegistrationAccess> = z.object({
  holder: z.string().min(16).max(64),
  pending: tenDigits.nullable(),
  proved: z.object({ number: tenDigits, until: z.number() }).nullable(),
  registered: z.object({ id: z.string().min(1).max(64), until: z.number() }).nullable(),
});

export const registrationAccessCookieSpec: SealedCookieSpec<RegistrationAccess> = {
  name: "registro",
  maxAgeSeconds: REGISTRATION_PROOF_MS / 1000,
  schema: registrationAccessSchema,
};

export function readRegistrationAccess(context: RequestContext): RegistrationAccess | null {
  return context.jar.get(context.cookies.registration);
}

/** This browser's access, or a new one with an id of its own. */
export function registrationAccessOrNew(context: RequestContext): RegistrationAccess {
  return (
    readRegistrationAccess(context) ?? {
      holder: randomBytes(16).toString("base64url"),
      pending: null,
      proved: null,
      registered: null,
    }
  );
}

export function saveRegistrationAccess(context: RequestContext, access: RegistrationAccess) {
  context.jar.set(context.cookies.registration, access);
}

export function forgetRegistrationAccess(context: RequestContext) {
  context.jar.clear(context.cookies.registration);
}

/** The number this browser proved and may register the holder of now, or null. */
export function provedNumber(access: RegistrationAccess | null, now: number): string | null {
  return access?.proved && access.proved.until > now ? access.proved.number : null;
}

/** The registration this browser just made, while it is shown, or null. */
export function registeredId(access: RegistrationAccess | null, now: number): string | null {
  return access?.registered && access.registered.until > now ? access.registered.id : null;
}
