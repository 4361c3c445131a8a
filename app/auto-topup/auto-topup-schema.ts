import * as z from "zod";
import "~/lib/zod-without-eval";
import { OFFERED_AMOUNTS } from "~/topup/amounts";
import { MONTHLY_MAX_CHOICES, TRIGGER_CHOICES, type TriggerChoice } from "./rules";

/**
 * The automatic top-up's form on a line's page (decision 0120): how much, when, the monthly cap
 * and the saved card; and the button that switches it off. Messages are keys of the "topup"
 * namespace. Whether the card is one of the account's is the server's to check.
 */

const message = (key: string) => ({ error: `topup:auto.errors.${key}` });

export const AUTO_TOPUP_INTENTS = ["activar", "desactivar"] as const;

const SAVED_CARD_ID = /^tj_[\w-]{16}$/;

export const autoTopupSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("activar"),
      amount: z
        .string(message("amountRequired"))
        .regex(/^\d+$/, message("amountNotOffered"))
        .transform(Number)
        .refine((amount) => OFFERED_AMOUNTS.includes(amount), message("amountNotOffered")),
      cuando: z
        .string(message("whenRequired"))
        .refine(
          (value): value is TriggerChoice => (TRIGGER_CHOICES as readonly string[]).includes(value),
          message("whenRequired"),
        )
        .transform((value) => value as TriggerChoice),
      tope: z
        .string(message("capRequired"))
        .regex(/^\d$/, message("capRequired"))
        .transform(Number)
        .refine(
          (cap) => (MONTHLY_MAX_CHOICES as readonly number[]).includes(cap),
          message("capRequired"),
        ),
      tarjeta: z.string(message("cardRequired")).regex(SAVED_CARD_ID, message("cardRequired")),
    }),
    z.object({ intent: z.literal("desactivar") }),
  ],
  message("unknownIntent"),
);

export type AutoTopupSubmission = z.infer<typeof autoTopupSchema>;

/** The settings form's fields in page order (fuzzing and the page share it). */
export const AUTO_TOPUP_FIELDS = ["intent", "amount", "cuando", "tope", "tarjeta"] as const;
