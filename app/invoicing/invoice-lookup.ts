import * as z from "zod";
import "~/lib/zod-without-eval";

const message = (key: string) => ({ error: `invoicing:lookup.errors.${key}` });

/**
 * The lookup of /facturacion without an order or a receipt at hand: the folio of a paid order
 * (PED-…) or top-up (REC-…), written any way, and the e-mail it was placed with. Messages are
 * keys of the "invoicing" namespace.
 */
export const invoiceLookupSchema = z.object({
  folio: z
    .string(message("folioRequired"))
    .transform((value) => value.replace(/\s/g, "").toUpperCase())
    .pipe(z.string().regex(/^(PED|REC)-\d{4}-\d{6}$/, message("folioFormat"))),
  correo: z
    .string(message("emailRequired"))
    .trim()
    .max(254, message("emailInvalid"))
    .pipe(z.email(message("emailInvalid"))),
});

export type InvoiceLookup = z.infer<typeof invoiceLookupSchema>;
