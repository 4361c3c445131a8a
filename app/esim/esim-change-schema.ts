import * as z from "zod";
import "~/lib/zod-without-eval";

/** What a customer may do to an eSIM of their paid order, from its page. */
export const ESIM_CHANGE_INTENTS = ["replace-esim-code", "simulate-esim-install"] as const;
export type EsimChangeIntent = (typeof ESIM_CHANGE_INTENTS)[number];

export function isEsimChangeIntent(value: unknown): value is EsimChangeIntent {
  return ESIM_CHANGE_INTENTS.includes(value as EsimChangeIntent);
}

/** The eSIM's position among the order's (the page's own buttons send it). */
export const esimChangeSchema = z.object({
  intent: z.enum(ESIM_CHANGE_INTENTS),
  position: z
    .string({ error: "commerce:confirmation.esim.errors.unknown" })
    .regex(/^\d{1,2}$/, { error: "commerce:confirmation.esim.errors.unknown" })
    .transform(Number),
});
