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
 * Folios are sequential and e-mails are known to many: a lookup only ever sends a link to the
 * order's own address (decision 0082), so the limits guard the mailbox and the store, not the
 * order. Per client, and per folio from one client — never per folio alone, which let anyone
 * lock a customer out of their own order. The links one order is sent a day are counted per
 * requester (a few), and under a ceiling per order far above it that only links a requester's own
 * count allowed reach: one stranger uses up their own few links, never the owner's (decision 0137).
 */
export const ORDER_LOOKUP_LIMITS: Record<
  "perClient" | "perFolioAndClient" | "linksPerRequester" | "linksPerOrder",
  RateLimitRule
> = {
  perClient: { limit: 30, windowMs: QUARTER_HOUR_MS },
  perFolioAndClient: { limit: 5, windowMs: QUARTER_HOUR_MS },
  linksPerRequester: { limit: 3, windowMs: DAY_MS },
  linksPerOrder: { limit: 50, windowMs: DAY_MS },
};
