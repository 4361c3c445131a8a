import * as z from "zod";
import "~/lib/zod-without-eval";
import type { RateLimitRule } from "~/lib/rate-limit";

const message = (key: string) => ({ error: `commerce:lookup.errors.${key}` });

/**
 * The order lookup form: the folio the customer was given (written in any case, with spaces)
 * and the e-mail of the order. Messages are keys of the "commerce" namespace.
 */
export const orderLookupSchema = z.object({
  folio: z
    .string(message("folioRequired"))
    .transform((value) => value.replace(/\s/g, "").toUpperCase())
    .pipe(z.string().regex(/^PED-\d{4}-\d{6}$/, message("folioFormat"))),
  correo: z
    .string(message("emailRequired"))
    .trim()
    .max(254, message("emailInvalid"))
    .pipe(z.email(message("emailInvalid"))),
});

export type OrderLookup = z.infer<typeof orderLookupSchema>;

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Folios are sequential: the lookups from one address and of one folio are limited, so that a
 * customer finding their own order never meets the limits and trying a stranger's e-mail
 * against recent folios takes months.
 */
export const ORDER_LOOKUP_LIMITS: Record<"perIp" | "perFolio" | "perFolioPerDay", RateLimitRule> = {
  perIp: { limit: 30, windowMs: QUARTER_HOUR_MS },
  perFolio: { limit: 10, windowMs: QUARTER_HOUR_MS },
  perFolioPerDay: { limit: 20, windowMs: DAY_MS },
};
