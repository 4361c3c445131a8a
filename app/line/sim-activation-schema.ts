import * as z from "zod";
import { passesLuhn } from "~/lib/luhn";
import "~/lib/zod-without-eval";

const message = (key: string) => ({ error: `activation:errors.${key}` });

/** The ICCID as printed, without the spaces and dashes it is grouped with on the card. */
const digitsOnly = (value: string) => value.replace(/[\s-]/g, "");

/**
 * The /activar form: the ICCID printed on the SIM card — 19 or 20 digits starting with 89
 * (telecommunications, ITU-T E.118), the last a Luhn check digit, so that a mistyped digit is
 * told next to the field before anything is looked up. Messages are keys of the "activation"
 * namespace, the same schema checking in the browser and on the server.
 */
export const simActivationSchema = z.object({
  iccid: z
    .string(message("iccidRequired"))
    .transform(digitsOnly)
    .pipe(
      z
        .string()
        .min(1, { ...message("iccidRequired"), abort: true })
        .regex(/^89\d{17,18}$/, { ...message("iccidFormat"), abort: true })
        .refine(passesLuhn, message("iccidCheck")),
    ),
});

export type SimActivationInput = z.infer<typeof simActivationSchema>;
