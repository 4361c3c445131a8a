import * as z from "zod";
import { PAYMENT_METHODS } from "~/payments/provider";
import { MEXICAN_STATES } from "./mexican-states";

/**
 * The checkout form. Messages are keys of the "commerce" namespace, translated where they are
 * shown, so the same schema validates on the server and, with JavaScript, in the browser.
 */
const required = (key: string) => ({ error: `commerce:checkout.errors.${key}` });

const text = (key: string, max: number) =>
  z
    .string(required(`${key}Required`))
    .trim()
    .min(1, required(`${key}Required`))
    .max(max, required("tooLong"));

export const checkoutSchema = z.object({
  full_name: z
    .string(required("fullNameRequired"))
    .trim()
    .min(3, required("fullNameShort"))
    .max(120, required("tooLong")),
  email: z
    .string(required("emailRequired"))
    .trim()
    .max(254, required("tooLong"))
    .pipe(z.email(required("emailInvalid"))),
  // Customers write "55 1234 5678" or "(55) 1234-5678"; the order keeps the ten digits.
  phone_number: z
    .string(required("phoneRequired"))
    .transform((value) => value.replace(/[\s().-]/g, ""))
    .pipe(z.string().regex(/^\d{10}$/, required("phoneDigits"))),
  street: text("street", 120),
  exterior_number: text("exteriorNumber", 20),
  interior_number: z.string().trim().max(20, required("tooLong")).optional(),
  neighborhood: text("neighborhood", 120),
  postal_code: z
    .string(required("postalCodeRequired"))
    .trim()
    .regex(/^\d{5}$/, required("postalCodeDigits")),
  municipality: text("municipality", 120),
  state: z.enum(MEXICAN_STATES, required("stateRequired")),
  // The form offers card checked: a request without a choice pays by card.
  payment_method: z.enum(PAYMENT_METHODS, required("paymentMethodRequired")).default("card"),
  accept_terms: z.literal("on", required("acceptTerms")),
  idempotency_key: z.uuid(required("expired")),
});

export type CheckoutInput = z.infer<typeof checkoutSchema>;

/** The checkout fields in form order (the browser tests and the form share it). */
export const CHECKOUT_FIELDS = Object.keys(checkoutSchema.shape) as Array<keyof CheckoutInput>;
