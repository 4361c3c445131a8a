import { getZodConstraint } from "@conform-to/zod/v4";
import * as z from "zod";
import { withoutControlCharacters } from "~/lib/control-characters";
import { FORM_KEY_PATTERN } from "~/lib/form-key";
import "~/lib/zod-without-eval";
import { SIM_TYPES, type SimType } from "~/catalog/terms";
import {
  paymentChoiceField,
  saveCardField,
  toPaymentChoice,
  type PaymentChoice,
} from "~/payments/payment-choice";
import { numberToPortSchema, type NumberToPort } from "~/portability/portability-schema";
import { checkoutHolderSchema, type CheckoutHolder } from "~/registration/holder";
import { REGISTRATION_RULES } from "~/registration/registration-rules";
import { MEXICAN_STATES } from "~/lib/mexican-states";

/**
 * The checkout form. Messages are keys of the "commerce" namespace, translated where they are
 * shown, so the same schema validates on the server and, with JavaScript, in the browser.
 */
const required = (key: string) => ({ error: `commerce:checkout.errors.${key}` });

/** What every free-text field ends with: no control or bidi character (decision 0080). */
const plainText = withoutControlCharacters(required("controlCharacters"));

const text = (key: string, max: number) =>
  z
    .string(required(`${key}Required`))
    .trim()
    .min(1, required(`${key}Required`))
    .max(max, required("tooLong"))
    .check(plainText);

/**
 * How many of an order's SIMs are offered to keep a number: one persona holds at most this many
 * lines (the registration's rule), and every ported number is registered to the order's holder.
 */
export const MAX_PORT_INS = REGISTRATION_RULES.maxLinesPerPerson;

/** The SIMs of a checkout offered "Quiero conservar mi número": the first MAX_PORT_INS. */
export function portableSims(simCount: number): number {
  return Math.min(simCount, MAX_PORT_INS);
}

/**
 * One SIM's "Quiero conservar mi número" (issue 34): unchecked, whatever its fields hold is
 * ignored (a form without JavaScript keeps them on the page, hidden by CSS); checked, the number,
 * its carrier and its NIP are checked as the portability form checks them, with its messages.
 * None is `required` in the HTML: a hidden field must not stop a browser without JavaScript.
 */
const portChoice = z
  .object({
    keep: z.literal("on", required("keepNumberInvalid")).optional(),
    phone_number: z.string().optional(),
    current_carrier: z.string().optional(),
    nip: z.string().optional(),
  })
  .transform((choice, ctx): NumberToPort | null => {
    if (!choice.keep) return null;
    const kept = numberToPortSchema.safeParse(choice);
    if (kept.success) return kept.data;
    for (const issue of kept.error.issues) {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
    return z.NEVER;
  });

const orderFields = {
  full_name: z
    .string(required("fullNameRequired"))
    .trim()
    .min(3, required("fullNameShort"))
    .max(120, required("tooLong"))
    .check(plainText),
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
  // Who will hold the lines (issue 27): checked as /registro-de-linea checks a holder, its
  // messages keys of the "registration" namespace. Nested ("holder.curp"): the buyer has a
  // full_name of their own.
  holder: checkoutHolderSchema,
  // One per SIM, in the order of the cart's lines ("ports[0].keep"…); absent: none kept.
  ports: z.array(portChoice).optional(),
  // The form offers card checked: a request without a choice pays by card. Signed in, a saved
  // card is a choice too, and the box saves the card typed on the provider's page (0119).
  payment_method: paymentChoiceField(required("paymentMethodRequired").error),
  save_card: saveCardField,
  accept_terms: z.literal("on", required("acceptTerms")),
  // The shared form key's shape; whether it is this browser's own is the action's to check.
  idempotency_key: z.string(required("expired")).regex(FORM_KEY_PATTERN, required("expired")),
};

const deliveryFields = {
  street: text("street", 120),
  exterior_number: text("exteriorNumber", 20),
  interior_number: z.string().trim().max(20, required("tooLong")).check(plainText).optional(),
  neighborhood: text("neighborhood", 120),
  postal_code: z
    .string(required("postalCodeRequired"))
    .trim()
    .regex(/^\d{5}$/, required("postalCodeDigits")),
  municipality: text("municipality", 120),
  state: z.enum(MEXICAN_STATES, required("stateRequired")),
};

/** A number to keep, and the SIM of the order that receives it. */
export interface PortInChoice extends NumberToPort {
  position: number;
}

export type DeliveryAddress = z.infer<z.ZodObject<typeof deliveryFields>>;

export interface CheckoutInput {
  full_name: string;
  email: string;
  phone_number: string;
  /** Who the order's lines are registered to when they are activated: may be someone else. */
  holder: CheckoutHolder;
  /**
   * The numbers to keep, each with the SIM (0-based, in the order of the cart's lines) that
   * receives it: filed as portability requests once the order is paid (decision 0106).
   */
  port_ins: PortInChoice[];
  sim_type: SimType;
  /** Where a physical SIM goes; null for an eSIM, which needs no address. */
  delivery: DeliveryAddress | null;
  /** How the customer pays: a method, a saved card, and whether to save the card. */
  payment: PaymentChoice;
  idempotency_key: string;
}

/**
 * The checkout form for a cart whose plans can all be had with the SIM types `simTypes`. A
 * physical SIM needs the delivery address; an eSIM needs none, and whatever the address fields
 * still hold (a form without JavaScript keeps them on the page) is ignored.
 */
const checkoutForm = z.discriminatedUnion(
  "sim_type",
  [
    z.object({ sim_type: z.literal("physical"), ...orderFields, ...deliveryFields }),
    z.object({ sim_type: z.literal("esim"), ...orderFields }),
  ],
  required("simTypeRequired"),
);

/**
 * The HTML constraints of the form's fields (required, maxLength…). The address fields are only
 * required of a physical SIM, so they carry no `required`: a browser without JavaScript must let
 * an eSIM order through with the address left empty.
 */
export const checkoutConstraint = getZodConstraint(checkoutForm);

/**
 * A form without the SIM choice (a page loaded before it existed, a client that leaves it out)
 * gets the type the page offers checked, as the payment method defaults to card.
 */
export function withDefaultSimType(formData: FormData, simTypes: readonly SimType[]): FormData {
  if (!formData.has("sim_type") && simTypes.length > 0) formData.set("sim_type", simTypes[0]);
  return formData;
}

/**
 * A form without the holder's kind (a page loaded before it was asked, a client that leaves it
 * out) is a persona física's: what is missing is then told field by field, next to each.
 */
export function withDefaultHolderKind(formData: FormData): FormData {
  if (!formData.get(HOLDER_KIND_FIELD)) formData.set(HOLDER_KIND_FIELD, "fisica");
  return formData;
}

export const HOLDER_KIND_FIELD = "holder.holder_kind";

/** The numbers kept, each with its SIM's position; what is not kept is left out. */
function keptNumbers(ports: ReadonlyArray<NumberToPort | null> | undefined): PortInChoice[] {
  return (ports ?? []).flatMap((port, position) => (port ? [{ ...port, position }] : []));
}

/**
 * The checkout form for a cart whose plans can all be had with the SIM types `simTypes`, and
 * whose first `portable` SIMs may keep a number (`portableSims`).
 */
export function checkoutSchema(
  simTypes: readonly SimType[] = SIM_TYPES,
  portable: number = MAX_PORT_INS,
) {
  return checkoutForm
    .superRefine((value, ctx) => {
      if (!simTypes.includes(value.sim_type)) {
        ctx.addIssue({
          code: "custom",
          path: ["sim_type"],
          message: `commerce:checkout.errors.simTypeUnavailable`,
        });
      }
      const kept = keptNumbers(value.ports);
      const seen = new Set<string>();
      for (const port of kept) {
        if (port.position >= portable) {
          // The cart lost SIMs since the page was drawn (another tab): this one is gone.
          ctx.addIssue({
            code: "custom",
            path: ["ports", port.position, "keep"],
            message: "commerce:checkout.errors.keepNumberNoSim",
          });
        } else if (seen.has(port.phone_number)) {
          ctx.addIssue({
            code: "custom",
            path: ["ports", port.position, "phone_number"],
            message: "commerce:checkout.errors.keepNumberRepeated",
          });
        }
        seen.add(port.phone_number);
      }
      // A portability request is made with the holder's CURP: a foreigner's temporal one.
      if (kept.length > 0 && value.holder.holder_kind === "extranjera" && !value.holder.curp) {
        ctx.addIssue({
          code: "custom",
          path: ["holder", "curp"],
          message: "commerce:checkout.errors.keepNumberNeedsCurp",
        });
      }
    })
    .transform((value): CheckoutInput => {
      const common = {
        full_name: value.full_name,
        email: value.email,
        phone_number: value.phone_number,
        holder: value.holder,
        port_ins: keptNumbers(value.ports),
        payment: toPaymentChoice(value.payment_method, value.save_card === "on"),
        idempotency_key: value.idempotency_key,
      };
      if (value.sim_type === "esim") return { ...common, sim_type: "esim", delivery: null };
      const { street, exterior_number, interior_number, neighborhood, postal_code } = value;
      return {
        ...common,
        sim_type: "physical",
        delivery: {
          street,
          exterior_number,
          interior_number,
          neighborhood,
          postal_code,
          municipality: value.municipality,
          state: value.state,
        },
      };
    });
}

/** The checkout fields in form order (the browser tests and the form share it). */
export const CHECKOUT_FIELDS = [
  ...(["full_name", "email", "phone_number"] as const),
  ...([
    "holder.holder_kind",
    "holder.full_name",
    "holder.curp",
    "holder.identification_type",
    "holder.passport_number",
    "holder.nationality",
  ] as const),
  ...(["sim_type"] as const),
  ...([
    "ports[0].keep",
    "ports[0].phone_number",
    "ports[0].current_carrier",
    "ports[0].nip",
    "ports[1].keep",
    "ports[1].phone_number",
    "ports[1].current_carrier",
    "ports[1].nip",
  ] as const),
  ...(Object.keys(deliveryFields) as Array<keyof DeliveryAddress>),
  ...(["payment_method", "save_card", "accept_terms", "idempotency_key"] as const),
];

/** The SIM types every plan of the cart can be had with (none: the cart mixes exclusive plans). */
export function simTypesForCart(planSimTypes: ReadonlyArray<readonly SimType[]>): SimType[] {
  return SIM_TYPES.filter((type) => planSimTypes.every((types) => types.includes(type)));
}
