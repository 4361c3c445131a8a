/**
 * A payment provider shaped like a hosted checkout: the store creates a payment, sends the
 * customer to the provider's page (or gives them a voucher to pay later), gets the customer back
 * at a return URL, and learns the result from a signed server-to-server notification. The
 * embedded default is the sandbox provider; Stripe is the real one (decision 0065).
 */

/** How a customer pays: a card now, cash at a store later, or a SPEI bank transfer later. */
export const PAYMENT_METHODS = ["card", "cash", "spei"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === "string" && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** The card brands the store names ("payment.brands.<brand>" in the "commerce" namespace). */
export const CARD_BRANDS = ["visa", "mastercard", "amex", "other"] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export function toCardBrand(value: string | null | undefined): CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(value ?? "") ? (value as CardBrand) : "other";
}

/** Why a payment was declined; each has a Spanish explanation in the "commerce" namespace. */
export const DECLINE_REASONS = [
  "card_declined",
  "insufficient_funds",
  "test_card_required",
  "payment_failed",
  /** The bank asks the cardholder to authenticate (3-D Secure): not charged without them. */
  "authentication_required",
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** What a customer who pays later needs: a voucher to pay in cash, or where to transfer. */
export type PaymentInstructions =
  | {
      method: "cash";
      /** The number the cashier scans or types; unique, never reused. */
      reference: string;
      /** ISO-8601: after this the voucher is not accepted. */
      expiresAt: string;
      /** The provider's own printable voucher, when it has one. */
      hostedUrl: string | null;
    }
  | {
      method: "spei";
      /** 18 digits, with its control digit. */
      clabe: string;
      /** The numeric reference to write in the transfer. */
      reference: string;
      bank: string;
      beneficiary: string;
      expiresAt: string;
      hostedUrl: string | null;
    };

export interface CreateCheckoutInput {
  /** The store's payment id. Creating twice with the same id returns the same checkout. */
  paymentId: string;
  /** Whole pesos, IVA included. */
  amount: number;
  currency: "MXN";
  method: PaymentMethod;
  /** Shown to the customer on the provider's page. */
  description: string;
  /** Where the provider sends the customer back (absolute URL). */
  returnUrl: string;
  /** Where the provider posts its signed notification (absolute URL). */
  notifyUrl: string;
  /** When a voucher or transfer stops being payable. */
  expiresAt: Date;
  /** Where the provider may send its own receipt or voucher; null when unknown. */
  customerEmail: string | null;
  /**
   * A card payment whose card the customer asked to save: the provider's customer it is saved
   * to, for later charges with nobody at the page (Stripe's `setup_future_usage: off_session`).
   * null: not saved.
   */
  saveCardFor: string | null;
}

/** A card the provider keeps for one of its customers: its ids and what the customer reads of it. */
export interface ProviderCard {
  customerRef: string;
  /** The provider's saved payment method (Stripe `pm_…`). */
  methodRef: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A charge of a saved card (decision 0119). */
export interface SavedCardChargeInput {
  /** The store's payment id. */
  paymentId: string;
  amount: number;
  currency: "MXN";
  description: string;
  customerRef: string;
  methodRef: string;
  /**
   * true: nobody is at the page (an automatic top-up), so a bank that asks for authentication
   * gets no answer and the charge fails with "authentication_required"; false: the customer is
   * paying now.
   */
  offSession: boolean;
  /** The same key charges once however often it is sent (Stripe's Idempotency-Key). */
  idempotencyKey: string;
}

export interface HostedCheckout {
  providerReference: string;
  /**
   * The provider's page for the customer (absolute, or a path on this site for the sandbox);
   * null when the instructions are all the customer needs.
   */
  redirectUrl: string | null;
  /** A voucher or transfer issued at once; null for a card, or until the customer chooses. */
  instructions: PaymentInstructions | null;
}

export interface PaymentOutcome {
  paymentId: string;
  providerReference: string;
  status: "pending" | "approved" | "declined" | "expired";
  amount: number;
  currency: string;
  declineReason: DeclineReason | null;
  /** Only the brand and the last four digits ever leave the provider. */
  card: { brand: CardBrand; last4: string } | null;
  /** A voucher or transfer the customer chose at the provider's page, once known. */
  instructions: PaymentInstructions | null;
  /** An approved card payment that asked to save its card: the card as the provider keeps it. */
  savedCard?: ProviderCard | null;
}

/** What a verified notification says: its id (to apply it once) and the outcome, if any. */
export interface ProviderNotification {
  eventId: string | null;
  /** null: a notification the store does not act on (another event type). */
  outcome: PaymentOutcome | null;
}

export interface PaymentProvider {
  /** Short name, part of the notification address: /payments/webhook/<name>. */
  readonly name: string;
  /**
   * Other sites a form of this one may lead to (the provider's hosted page): a browser obeys
   * the page's `form-action` even across the redirect that follows a form.
   */
  readonly pageOrigins: readonly string[];
  createCheckout(input: CreateCheckoutInput): Promise<HostedCheckout>;
  /** The notification when its signature holds; "invalid" otherwise. */
  parseNotification(rawBody: string, headers: Headers): Promise<ProviderNotification | "invalid">;
  /** Asks the provider for the payment's state (when the notification is late or lost). */
  retrieve(providerReference: string): Promise<PaymentOutcome | null>;
  /**
   * Closes a checkout the customer has not paid, before another way of paying is opened.
   * Resolves "closed", or "paid" when it was paid meanwhile (the store then applies that).
   */
  close(providerReference: string): Promise<"closed" | "paid">;
  /**
   * The provider's customer for one of the store's accounts, made once per `accountKey` (a
   * repeat with the same key answers the same customer).
   */
  createCustomer(input: { accountKey: string; email: string | null }): Promise<string>;
  /**
   * Charges a saved card at once: approved, declined (with its reason; "authentication_required"
   * when the bank asks for 3-D Secure), or pending when the provider has not decided yet.
   */
  chargeSavedCard(input: SavedCardChargeInput): Promise<PaymentOutcome>;
  /** Forgets a saved card at the provider (Stripe: detaches the PaymentMethod); a repeat is harmless. */
  detachCard(methodRef: string): Promise<void>;
}

/** A provider that cannot be reached (or answers with its own failure): the customer retries. */
export class PaymentProviderUnavailable extends Error {
  constructor(cause: unknown) {
    super("the payment provider could not be reached", { cause });
    this.name = "PaymentProviderUnavailable";
  }
}

/**
 * True for a PaymentProviderUnavailable. Not `instanceof`: server.ts and the server build are
 * separate bundles, each with its own copy of the class.
 */
export function isPaymentProviderUnavailable(error: unknown): error is PaymentProviderUnavailable {
  return error instanceof Error && error.name === "PaymentProviderUnavailable";
}
