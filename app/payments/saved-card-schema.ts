import * as z from "zod";
import "~/lib/zod-without-eval";

const message = "commerce:savedCards.errors.unknownCard";

/** "Quitar" on a saved card: which one. Messages are translation keys. */
export const removeCardSchema = z.object({
  intent: z.literal("quitar", { error: message }),
  card_id: z.string({ error: message }).regex(/^tj_[\w-]{16}$/, { error: message }),
});
