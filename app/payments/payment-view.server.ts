import { formatDateTime } from "~/lib/dates";
import { code128DataUrl } from "./barcode.server";
import { formatClabe } from "./clabe";
import { paymentInstructions, type Payment } from "./payments.server";
import type { PaymentMethod } from "./provider";
import { SANDBOX_PATH_PREFIX } from "./sandbox/sandbox.server";

/** What a voucher or transfer shows the customer, ready to render. */
export type InstructionsView =
  | {
      method: "cash";
      reference: string;
      /** Code 128, an SVG data URL. */
      barcode: string;
      expires: string;
      hostedUrl: string | null;
      /** The sandbox's simulator (test environments only). */
      simulatorUrl: string | null;
    }
  | {
      method: "spei";
      clabe: string;
      reference: string;
      bank: string;
      beneficiary: string;
      expires: string;
      hostedUrl: string | null;
      simulatorUrl: string | null;
    };

/** What an order's or a top-up's page shows of its latest payment. */
export interface PaymentView {
  status: Payment["status"];
  method: PaymentMethod;
  declineReason: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** The provider's page of a payment still open there. */
  checkoutUrl: string | null;
  instructions: InstructionsView | null;
}

export function paymentView(payment: Payment | null): PaymentView | null {
  if (!payment) return null;
  const instructions = payment.status === "pending" ? paymentInstructions(payment) : null;
  const simulatorUrl =
    payment.provider === "sandbox" && payment.provider_reference
      ? `${SANDBOX_PATH_PREFIX}${payment.provider_reference}`
      : null;
  return {
    status: payment.status,
    method: payment.method as PaymentMethod,
    declineReason: payment.decline_reason,
    cardBrand: payment.card_brand,
    cardLast4: payment.card_last4,
    checkoutUrl: payment.status === "pending" && !instructions ? payment.checkout_url : null,
    instructions: !instructions
      ? null
      : instructions.method === "cash"
        ? {
            method: "cash",
            reference: instructions.reference,
            barcode: code128DataUrl(instructions.reference),
            expires: formatDateTime(instructions.expiresAt),
            hostedUrl: instructions.hostedUrl,
            simulatorUrl,
          }
        : {
            method: "spei",
            clabe: formatClabe(instructions.clabe),
            reference: instructions.reference,
            bank: instructions.bank,
            beneficiary: instructions.beneficiary,
            expires: formatDateTime(instructions.expiresAt),
            hostedUrl: instructions.hostedUrl,
            simulatorUrl,
          },
  };
}
