import Stripe from "stripe";
import {
  PaymentProviderUnavailable,
  type CreateCheckoutInput,
  type DeclineReason,
  type HostedCheckout,
  type PaymentInstructions,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProvider,
  type ProviderCard,
  type ProviderNotification,
  type SavedCardChargeInput,
  toCardBrand,
} from "../provider";

/**
 * Stripe behind the store's provider interface (decision 0065): one Checkout Session in MXN per
 * payment, limited to the method the customer chose on the store's form (`card`, `oxxo`, or
 * `customer_balance` as a Mexican bank transfer). The customer pays on Stripe's hosted page and
 * comes back to the order's page; webhooks, verified with the SDK's `constructEvent`, settle it.
 */
export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** A stand-in for https://api.stripe.com (tests); absent, the SDK's own address. */
  apiUrl?: string;
  timeoutMs: number;
  /**
   * This site's public origin, written on every session: a Stripe account's webhooks reach
   * every endpoint, so events of another site on the same account (staging) are ignored.
   */
  storeOrigin: string;
}

/** Where Stripe's hosted Checkout pages live (a stand-in's own address in tests). */
const STRIPE_CHECKOUT_ORIGIN = "https://checkout.stripe.com";

const METHOD_TYPES = {
  card: "card",
  cash: "oxxo",
  spei: "customer_balance",
} as const satisfies Record<PaymentMethod, string>;

/** Stripe keeps a Checkout Session open at most 24 hours and at least 30 minutes. */
const SESSION_MAX_SECONDS = 24 * 60 * 60;
const SESSION_MIN_SECONDS = 30 * 60 + 60;
/**
 * Reads behind a page view wait less than the writes that open a payment, and are not retried:
 * the page shows what the store knows, and the webhook or the next view brings the rest.
 */
const QUICK_READ = { timeout: 3_000, maxNetworkRetries: 0 };

const DAY_MS = 24 * 60 * 60 * 1000;

const METADATA = {
  paymentId: "payment_id",
  storeOrigin: "store_origin",
  /** The store's deadline for a voucher or transfer (ISO-8601). */
  payBy: "pay_by",
  /** On a PaymentIntent the store made itself to charge a saved card (decision 0119). */
  charge: "charge",
} as const;

const SAVED_CARD_CHARGE = "saved_card";

/** The intent's card and its saved payment method come with it when it is read. */
const INTENT_EXPAND = ["latest_charge", "payment_method"];

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    // One retry of a write, under the same idempotency key: a blip costs the customer nothing.
    maxNetworkRetries: 1,
    timeout: options.timeoutMs,
    telemetry: false,
    appInfo: { name: "conecta-storefront" },
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === "https:" ? 443 : 80),
          protocol: api.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });

  /** Every failure of the API (network, timeout, Stripe's own 5xx, a refused key) reads alike. */
  async function call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw new PaymentProviderUnavailable(error);
    }
  }

  async function paymentIntentOf(session: Stripe.Checkout.Session) {
    const intent = session.payment_intent;
    if (!intent) return null;
    if (typeof intent !== "string") return intent;
    return call(() =>
      stripe.paymentIntents.retrieve(intent, { expand: INTENT_EXPAND }, QUICK_READ),
    );
  }

  async function outcomeOf(
    session: Stripe.Checkout.Session,
    hint: "failed" | null = null,
  ): Promise<PaymentOutcome | null> {
    const paymentId = session.metadata?.[METADATA.paymentId] ?? session.client_reference_id;
    if (!paymentId || session.metadata?.[METADATA.storeOrigin] !== options.storeOrigin) {
      return null;
    }
    const base = {
      paymentId,
      providerReference: session.id,
      amount: (session.amount_total ?? 0) / 100,
      currency: (session.currency ?? "mxn").toUpperCase(),
      declineReason: null,
      card: null,
      instructions: null,
    };
    if (session.payment_status === "paid" || session.payment_status === "no_payment_required") {
      const intent = await paymentIntentOf(session);
      return { ...base, status: "approved", card: cardOf(intent), savedCard: savedCardOf(intent) };
    }
    if (hint === "failed" || session.status === "expired") return { ...base, status: "expired" };
    if (session.status !== "complete") return { ...base, status: "pending" };
    // Complete and unpaid: the customer took a voucher or transfer details at Stripe's page.
    const intent = await paymentIntentOf(session);
    if (intent?.status === "succeeded") return { ...base, status: "approved" };
    if (intent && ["requires_payment_method", "canceled"].includes(intent.status)) {
      return { ...base, status: "expired" };
    }
    return {
      ...base,
      status: "pending",
      instructions: intent ? instructionsOf(intent, session.metadata?.[METADATA.payBy]) : null,
    };
  }

  async function retrieveSession(id: string) {
    return call(() => stripe.checkout.sessions.retrieve(id, {}, QUICK_READ));
  }

  /** A PaymentIntent the store made to charge a saved card, as an outcome; null for any other. */
  function intentOutcome(intent: Stripe.PaymentIntent): PaymentOutcome | null {
    const paymentId = intent.metadata?.[METADATA.paymentId];
    if (
      !paymentId ||
      intent.metadata?.[METADATA.charge] !== SAVED_CARD_CHARGE ||
      intent.metadata?.[METADATA.storeOrigin] !== options.storeOrigin
    ) {
      return null;
    }
    const base = {
      paymentId,
      providerReference: intent.id,
      amount: intent.amount / 100,
      currency: intent.currency.toUpperCase(),
      declineReason: null,
      card: cardOf(intent) ?? methodCardOf(intent),
      instructions: null,
    };
    switch (intent.status) {
      case "succeeded":
        return { ...base, status: "approved" };
      case "processing":
        return { ...base, status: "pending" };
      case "requires_action":
        return { ...base, status: "declined", declineReason: "authentication_required" };
      case "requires_payment_method":
        return {
          ...base,
          status: "declined",
          declineReason: declineReasonOf(intent.last_payment_error ?? null),
        };
      default:
        return { ...base, status: "declined", declineReason: "payment_failed" };
    }
  }

  async function retrieveIntent(id: string) {
    return call(() => stripe.paymentIntents.retrieve(id, { expand: INTENT_EXPAND }, QUICK_READ));
  }

  /** A saved card's charge asked for authentication with the customer at the page: let go of it. */
  async function cancelQuietly(intentId: string) {
    try {
      await stripe.paymentIntents.cancel(intentId);
    } catch {
      // Unconfirmed, it charges nothing; Stripe cancels it on its own after a while.
    }
  }

  return {
    name: "stripe",
    pageOrigins: [api ? api.origin : STRIPE_CHECKOUT_ORIGIN],

    async createCheckout(input: CreateCheckoutInput): Promise<HostedCheckout> {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const untilDeadline = Math.floor(input.expiresAt.getTime() / 1000) - nowSeconds;
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "payment",
        locale: "es-419",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "mxn",
              // Stripe counts centavos.
              unit_amount: Math.round(input.amount * 100),
              product_data: { name: input.description },
            },
          },
        ],
        allowed_payment_method_types: [METHOD_TYPES[input.method]],
        client_reference_id: input.paymentId,
        // Saving the card: it hangs from the account's Customer, for charges with nobody at the
        // page (Stripe's "save payment details during payment"). Stripe takes the customer's
        // address from the Customer then, not from customer_email.
        ...(input.saveCardFor ? { customer: input.saveCardFor } : {}),
        metadata: {
          [METADATA.paymentId]: input.paymentId,
          [METADATA.storeOrigin]: options.storeOrigin,
          [METADATA.payBy]: input.expiresAt.toISOString(),
        },
        payment_intent_data: {
          description: input.description,
          metadata: { [METADATA.paymentId]: input.paymentId },
          ...(input.saveCardFor ? { setup_future_usage: "off_session" as const } : {}),
        },
        success_url: input.returnUrl,
        cancel_url: input.returnUrl,
        expires_at:
          nowSeconds + Math.min(SESSION_MAX_SECONDS, Math.max(SESSION_MIN_SECONDS, untilDeadline)),
        ...(input.customerEmail && !input.saveCardFor
          ? { customer_email: input.customerEmail }
          : {}),
      };
      if (input.method === "cash") {
        params.payment_method_options = {
          // Whole days, rounded up: Stripe's voucher never lapses before the store's deadline,
          // and the store closes it at that deadline.
          oxxo: {
            expires_after_days: Math.min(
              7,
              Math.max(1, Math.ceil((input.expiresAt.getTime() - Date.now()) / DAY_MS)),
            ),
          },
        };
      }
      if (input.method === "spei") {
        // A transfer is received into a customer's balance at Stripe: the session creates one.
        params.customer_creation = "always";
        params.payment_method_options = {
          customer_balance: {
            funding_type: "bank_transfer",
            bank_transfer: { type: "mx_bank_transfer" },
          },
        };
      }
      const session = await call(() =>
        stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${input.paymentId}` }),
      );
      if (!session.url) {
        throw new PaymentProviderUnavailable(new Error(`session ${session.id} has no url`));
      }
      // Stripe shows the voucher or the transfer details on its page, once the customer confirms.
      return { providerReference: session.id, redirectUrl: session.url, instructions: null };
    },

    async parseNotification(rawBody, headers): Promise<ProviderNotification | "invalid"> {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          headers.get("stripe-signature") ?? "",
          options.webhookSecret,
        );
      } catch {
        return "invalid";
      }
      switch (event.type) {
        case "checkout.session.completed":
        case "checkout.session.async_payment_succeeded":
        case "checkout.session.expired":
          return { eventId: event.id, outcome: await outcomeOf(event.data.object) };
        case "checkout.session.async_payment_failed":
          return { eventId: event.id, outcome: await outcomeOf(event.data.object, "failed") };
        // A saved card's charge (the store's own PaymentIntents): its answer came with the
        // request; these tell it again, or tell it first when that answer was lost.
        case "payment_intent.succeeded":
        case "payment_intent.payment_failed": {
          // Read again with its card: the event's object names the card by id only.
          const told = intentOutcome(event.data.object);
          const outcome = told ? intentOutcome(await retrieveIntent(event.data.object.id)) : null;
          return { eventId: event.id, outcome };
        }
        default:
          return { eventId: event.id, outcome: null };
      }
    },

    async retrieve(providerReference) {
      if (providerReference.startsWith("pi_")) {
        return intentOutcome(await retrieveIntent(providerReference));
      }
      return outcomeOf(await retrieveSession(providerReference));
    },

    async close(providerReference) {
      if (providerReference.startsWith("pi_")) {
        const intent = await retrieveIntent(providerReference);
        if (intent.status === "succeeded") return "paid";
        if (intent.status === "canceled") return "closed";
        if (intent.status === "processing") {
          throw new PaymentProviderUnavailable(new Error(`intent ${intent.id} is processing`));
        }
        const cancelled = await call(() => stripe.paymentIntents.cancel(intent.id));
        return cancelled.status === "succeeded" ? "paid" : "closed";
      }
      const session = await retrieveSession(providerReference);
      if (session.payment_status === "paid") return "paid";
      if (session.status === "open") {
        const expired = await call(() => stripe.checkout.sessions.expire(session.id));
        return expired.payment_status === "paid" ? "paid" : "closed";
      }
      if (session.status === "expired") return "closed";
      // Complete and unpaid: a voucher or transfer is out; cancelling its intent voids it.
      const intent = await paymentIntentOf(session);
      if (!intent || intent.status === "canceled" || intent.status === "requires_payment_method") {
        return "closed";
      }
      if (intent.status === "succeeded") return "paid";
      if (intent.status === "processing") {
        throw new PaymentProviderUnavailable(new Error(`intent ${intent.id} is processing`));
      }
      const cancelled = await call(() => stripe.paymentIntents.cancel(intent.id));
      return cancelled.status === "succeeded" ? "paid" : "closed";
    },

    async createCustomer({ accountKey, email }) {
      const customer = await call(() =>
        stripe.customers.create(
          {
            ...(email ? { email } : {}),
            preferred_locales: ["es-419"],
            metadata: { [METADATA.storeOrigin]: options.storeOrigin },
          },
          // One Customer per account, even when two first saves race.
          { idempotencyKey: `customer-${accountKey}` },
        ),
      );
      return customer.id;
    },

    async chargeSavedCard(input: SavedCardChargeInput): Promise<PaymentOutcome> {
      const params: Stripe.PaymentIntentCreateParams = {
        amount: Math.round(input.amount * 100),
        currency: "mxn",
        customer: input.customerRef,
        payment_method: input.methodRef,
        allowed_payment_method_types: ["card"],
        confirm: true,
        expand: INTENT_EXPAND,
        description: input.description,
        metadata: {
          [METADATA.paymentId]: input.paymentId,
          [METADATA.storeOrigin]: options.storeOrigin,
          [METADATA.charge]: SAVED_CARD_CHARGE,
        },
        // Nobody at the page: Stripe asks the bank for the merchant-initiated exemption the first
        // payment's setup_future_usage prepared, and fails rather than wait for authentication.
        ...(input.offSession ? { off_session: true } : {}),
      };
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(params, {
          idempotencyKey: input.idempotencyKey,
        });
      } catch (error) {
        const declined = cardErrorOutcome(error, input);
        if (declined) return declined;
        throw new PaymentProviderUnavailable(error);
      }
      if (intent.status === "requires_action") {
        // The customer is at the page, but the bank's challenge is answered only on a page:
        // the store sends them to the hosted one instead (decision 0119).
        await cancelQuietly(intent.id);
      }
      return (
        intentOutcome(intent) ?? {
          paymentId: input.paymentId,
          providerReference: intent.id,
          status: "declined",
          amount: input.amount,
          currency: "MXN",
          declineReason: "payment_failed",
          card: null,
          instructions: null,
        }
      );
    },

    async detachCard(methodRef) {
      try {
        await stripe.paymentMethods.detach(methodRef);
      } catch (error) {
        // Already detached, or gone: what was asked is so.
        if (stripeErrorType(error) === "invalid_request_error") return;
        throw new PaymentProviderUnavailable(error);
      }
    },
  };
}

/**
 * The error's type on the wire (`card_error`, `invalid_request_error`…), read from the SDK's
 * error rather than by its class: what Stripe answered, whichever copy of the SDK built it.
 */
function stripeErrorType(error: unknown): string | null {
  const raw = (error as { rawType?: unknown } | null)?.rawType;
  return typeof raw === "string" ? raw : null;
}

/** Stripe's reason for a declined card, as the store names it. */
function declineReasonOf(
  error: { code?: string | null; decline_code?: string | null } | null,
): DeclineReason {
  if (
    error?.code === "authentication_required" ||
    error?.decline_code === "authentication_required"
  ) {
    return "authentication_required";
  }
  if (error?.decline_code === "insufficient_funds") return "insufficient_funds";
  return "card_declined";
}

/**
 * A card error (HTTP 402) is Stripe's answer, not a failure to reach it: the charge was declined,
 * or needs the cardholder (`authentication_required`). The error carries the PaymentIntent.
 */
function cardErrorOutcome(error: unknown, input: SavedCardChargeInput): PaymentOutcome | null {
  if (stripeErrorType(error) !== "card_error") return null;
  const cardError = error as Stripe.errors.StripeCardError;
  return {
    paymentId: input.paymentId,
    providerReference: cardError.payment_intent?.id ?? `declined:${input.idempotencyKey}`,
    status: "declined",
    amount: input.amount,
    currency: "MXN",
    declineReason: declineReasonOf(cardError),
    card: null,
    instructions: null,
  };
}

/** The card of the intent's payment method (when its charge does not say). */
function methodCardOf(intent: Stripe.PaymentIntent | null): PaymentOutcome["card"] {
  const method = intent?.payment_method;
  const card = method && typeof method !== "string" ? method.card : null;
  return card?.last4 ? { brand: toCardBrand(card.brand), last4: card.last4 } : null;
}

/**
 * A card saved by the payment (setup_future_usage off_session on its Customer): what the store
 * keeps of it. null when the payment saved none.
 */
function savedCardOf(intent: Stripe.PaymentIntent | null): ProviderCard | null {
  if (!intent || intent.setup_future_usage !== "off_session") return null;
  const customer = typeof intent.customer === "string" ? intent.customer : intent.customer?.id;
  const method = intent.payment_method;
  if (!customer || !method || typeof method === "string" || !method.card?.last4) return null;
  return {
    customerRef: customer,
    methodRef: method.id,
    brand: toCardBrand(method.card.brand),
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
  };
}

function cardOf(intent: Stripe.PaymentIntent | null): PaymentOutcome["card"] {
  const charge = intent?.latest_charge;
  const card = charge && typeof charge !== "string" ? charge.payment_method_details?.card : null;
  if (!card?.last4) return null;
  // Stripe's brand names ("visa", "mastercard", "amex", …) are the store's own for these three.
  return { brand: toCardBrand(card.brand), last4: card.last4 };
}

function earlier(isoDeadline: string | undefined, unixSeconds: number | null | undefined): string {
  const candidates = [
    isoDeadline ? Date.parse(isoDeadline) : Number.NaN,
    unixSeconds ? unixSeconds * 1000 : Number.NaN,
  ].filter((time) => Number.isFinite(time));
  return new Date(candidates.length > 0 ? Math.min(...candidates) : Date.now()).toISOString();
}

/** The voucher or transfer Stripe issued, as the store shows it; null when not (yet) issued. */
function instructionsOf(
  intent: Stripe.PaymentIntent,
  payBy: string | undefined,
): PaymentInstructions | null {
  const action = intent.next_action;
  const oxxo = action?.oxxo_display_details;
  if (oxxo?.number) {
    return {
      method: "cash",
      reference: oxxo.number,
      expiresAt: earlier(payBy, oxxo.expires_after),
      hostedUrl: oxxo.hosted_voucher_url ?? null,
    };
  }
  const transfer = action?.display_bank_transfer_instructions;
  const spei = transfer?.financial_addresses?.find((address) => address.spei)?.spei;
  if (transfer && spei?.clabe) {
    return {
      method: "spei",
      clabe: spei.clabe,
      reference: transfer.reference ?? "",
      bank: spei.bank_name,
      beneficiary: spei.account_holder_name ?? "",
      expiresAt: earlier(payBy, null),
      hostedUrl: transfer.hosted_instructions_url ?? null,
    };
  }
  return null;
}
