/**
 * A payment provider shaped like a hosted checkout: the store creates a payment, sends the
 * customer to the provider's page, gets the customer back at a return URL, and learns the result
 * from a signed server-to-server notification. The embedded default is the sandbox provider.
 */

/** Why a payment was declined; each has a Spanish explanation in the "commerce" namespace. */
export const DECLINE_REASONS = [
  "card_declined",
  "insufficient_funds",
  "test_card_required",
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export interface CreateCheckoutInput {
  /** The store's payment id. Creating twice with the same id returns the same checkout. */
  paymentId: string;
  /** Whole pesos, IVA included. */
  amount: number;
  currency: "MXN";
  /** Shown to the customer on the provider's page. */
  description: string;
  /** Where the provider sends the customer back (absolute URL). */
  returnUrl: string;
  /** Where the provider posts its signed notification (absolute URL). */
  notifyUrl: string;
}

export interface HostedCheckout {
  providerReference: string;
  /** The provider's payment page (absolute, or a path on this site for the sandbox). */
  redirectUrl: string;
}

export interface PaymentOutcome {
  paymentId: string;
  providerReference: string;
  status: "pending" | "approved" | "declined";
  amount: number;
  currency: string;
  declineReason: DeclineReason | null;
  /** Only the brand and the last four digits ever leave the provider. */
  card: { brand: string; last4: string } | null;
}

export interface PaymentProvider {
  /** Short name, part of the notification address: /payments/webhook/<name>. */
  readonly name: string;
  createCheckout(input: CreateCheckoutInput): Promise<HostedCheckout>;
  /** The notification's outcome when its signature holds; null otherwise. */
  verifyNotification(rawBody: string, headers: Headers): PaymentOutcome | null;
  /** Asks the provider for the payment's state (when the notification is late or lost). */
  retrieve(providerReference: string): Promise<PaymentOutcome | null>;
}
