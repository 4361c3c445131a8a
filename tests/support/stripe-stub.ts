import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { clabeControlDigit } from "../../app/payments/clabe";

/**
 * A local stand-in for api.stripe.com and for Stripe's hosted Checkout page, speaking Stripe's
 * documented wire format: form-encoded requests with bracketed keys, JSON objects shaped like
 * `Stripe.Checkout.Session`, `Stripe.PaymentIntent`, `Stripe.Customer` and
 * `Stripe.PaymentMethod`, errors as `{"error":{type,message}}` (a declined card as a 402
 * `card_error` carrying its `code`, `decline_code` and PaymentIntent), and webhooks signed with
 * the SDK's own `generateTestHeaderString`. Saved cards (decision 0119): a Checkout Session with
 * `customer` and `payment_intent_data[setup_future_usage]=off_session` attaches the card's
 * PaymentMethod to the Customer; PaymentIntents created with `confirm` (and `off_session`)
 * charge it, deciding by Stripe's test cards: 4242… succeeds, 4000 0027 6000 3184 always asks
 * for authentication (`authentication_required` off-session, `requires_action` on-session),
 * 4000 0000 0000 0341 is declined once saved, 4000 0000 0000 9995 lacks funds. The
 * `Idempotency-Key` of a create is honoured like Stripe's: the same key answers the first answer.
 *
 * What it cannot be: Stripe's eligibility rules (which methods an account may offer), its
 * decline logic beyond these cards, its real 3-D Secure pages, or its real voucher and CLABE
 * issuing. Those were not tried (README, 0065, 0119).
 */

type Params = Record<string, unknown>;

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The form-encoded body, nested as Stripe reads its bracketed keys. */
  params: Params;
}

interface StubSession {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  currency: string;
  amount_total: number;
  amount_subtotal: number;
  client_reference_id: string | null;
  customer_email: string | null;
  customer: string | null;
  metadata: Record<string, string>;
  allowed_payment_method_types: string[];
  payment_method_types: string[];
  payment_method_options: Params;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  created: number;
  livemode: false;
  locale: string | null;
}

interface StubIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: "requires_action" | "succeeded" | "requires_payment_method" | "canceled" | "processing";
  payment_method_types: string[];
  next_action: Params | null;
  latest_charge: string | null;
  customer: string | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  setup_future_usage: "off_session" | "on_session" | null;
  last_payment_error: Params | null;
  description: string | null;
}

export interface StubCustomer {
  id: string;
  object: "customer";
  email: string | null;
  metadata: Record<string, string>;
  preferred_locales: string[];
  created: number;
  livemode: false;
}

export interface StubPaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string };
  created: number;
  livemode: false;
  /** The test card's number, which Stripe never returns (the stand-in decides by it). */
  testNumber: string;
}

export type StubEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "checkout.session.expired"
  | "payment_intent.succeeded"
  | "payment_intent.payment_failed";

/** Stripe's test cards the stand-in knows (docs.stripe.com/testing). */
export const STRIPE_TEST_CARDS = {
  succeeds: "4242424242424242",
  authenticationRequired: "4000002760003184",
  declinesAfterAttaching: "4000000000000341",
  insufficientFunds: "4000000000009995",
} as const;

export interface DeliveredEvent {
  id: string;
  type: string;
  payload: string;
  header: string;
  status: number;
}

/** `a[b][0][c]=1` → `{a: {b: [{c: "1"}]}}`, as Stripe reads a form body. */
export function parseStripeForm(body: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Params | unknown[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      if (container[part] === undefined) {
        container[part] = /^\d+$/.test(parts[index + 1]) ? [] : {};
      }
      node = container[part] as Params;
    });
  }
  return root;
}

function id(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString("hex")}`;
}

function digits(count: number): string {
  return Array.from(randomBytes(count), (byte) => String(byte % 10)).join("");
}

function stripeError(status: number, type: string, message: string, code?: string) {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } };
}

export async function startStripeStub(options: {
  webhookSecret: string;
  /** Where webhooks go (the store's /payments/webhook/stripe); settable later. */
  webhookUrl?: string;
}) {
  const sessions = new Map<string, StubSession>();
  const intents = new Map<string, StubIntent>();
  const customers = new Map<string, StubCustomer>();
  const paymentMethods = new Map<string, StubPaymentMethod>();
  /** The session's saving details: what Checkout read from payment_intent_data. */
  const sessionIntentData = new Map<string, Params>();
  const charges = new Map<string, Params>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: StubRequest[] = [];
  const events: DeliveredEvent[] = [];
  /** delayMs: every API answer waits; failWithStatus: every API call fails; holdWebhooks: events wait for `release`. */
  const faults = { delayMs: 0, failWithStatus: 0, holdWebhooks: false };
  let webhookUrl = options.webhookUrl ?? null;
  let base = "";

  function sessionFromParams(params: Params): StubSession {
    const lineItems = (params.line_items as Params[] | undefined) ?? [];
    const amount = lineItems.reduce((sum, item) => {
      const price = item.price_data as Params;
      return sum + Number(price.unit_amount) * Number(item.quantity ?? 1);
    }, 0);
    const currency = String(
      (lineItems[0]?.price_data as Params | undefined)?.currency ?? params.currency ?? "mxn",
    );
    const methods = (params.allowed_payment_method_types as string[] | undefined) ?? ["card"];
    const sessionId = id("cs");
    const now = Math.floor(Date.now() / 1000);
    return {
      id: sessionId,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      currency,
      amount_total: amount,
      amount_subtotal: amount,
      client_reference_id: (params.client_reference_id as string) ?? null,
      customer_email: (params.customer_email as string) ?? null,
      customer:
        typeof params.customer === "string"
          ? params.customer
          : params.customer_creation === "always"
            ? id("cus")
            : null,
      metadata: (params.metadata as Record<string, string>) ?? {},
      allowed_payment_method_types: methods,
      payment_method_types: methods,
      payment_method_options: (params.payment_method_options as Params) ?? {},
      payment_intent: null,
      success_url: String(params.success_url),
      cancel_url: String(params.cancel_url),
      url: `${base}/c/pay/${sessionId}`,
      expires_at: Number(params.expires_at ?? now + 24 * 3600),
      created: now,
      livemode: false,
      locale: (params.locale as string) ?? null,
    };
  }

  function methodView(method: StubPaymentMethod) {
    const { testNumber: _number, ...view } = method;
    return view;
  }

  function intentView(intent: StubIntent, expand: string[]) {
    let view: Record<string, unknown> = { ...intent };
    if (expand.includes("latest_charge") && intent.latest_charge) {
      view = { ...view, latest_charge: charges.get(intent.latest_charge) };
    }
    const method = intent.payment_method ? paymentMethods.get(intent.payment_method) : undefined;
    if (expand.includes("payment_method") && method) {
      view = { ...view, payment_method: methodView(method) };
    }
    return view;
  }

  /** A card typed on the hosted page, as Stripe keeps it: its brand, last four and expiry. */
  function paymentMethodFor(number: string, customer: string | null): StubPaymentMethod {
    const method: StubPaymentMethod = {
      id: id("pm"),
      object: "payment_method",
      type: "card",
      customer,
      card: {
        brand: number.startsWith("5") ? "mastercard" : number.startsWith("3") ? "amex" : "visa",
        last4: number.slice(-4),
        exp_month: 12,
        exp_year: 2034,
        funding: "credit",
      },
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      testNumber: number,
    };
    paymentMethods.set(method.id, method);
    return method;
  }

  function chargeOf(method: StubPaymentMethod): string {
    const charge = id("ch");
    charges.set(charge, {
      id: charge,
      object: "charge",
      payment_method: method.id,
      payment_method_details: {
        type: "card",
        card: {
          brand: method.card.brand,
          last4: method.card.last4,
          exp_month: method.card.exp_month,
          exp_year: method.card.exp_year,
        },
      },
    });
    return charge;
  }

  async function deliver(
    type: StubEventType,
    object: StubSession | Record<string, unknown>,
  ): Promise<DeliveredEvent> {
    const payload = JSON.stringify(
      {
        id: id("evt"),
        object: "event",
        api_version: "2026-10-28.endive",
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      },
      null,
      2,
    );
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.webhookSecret,
    });
    const event: DeliveredEvent = {
      id: (JSON.parse(payload) as { id: string }).id,
      type,
      payload,
      header,
      status: 0,
    };
    events.push(event);
    if (webhookUrl && !faults.holdWebhooks) {
      try {
        const response = await fetch(webhookUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Stripe-Signature": header },
          body: payload,
        });
        event.status = response.status;
      } catch {
        event.status = -1;
      }
    }
    return event;
  }

  /**
   * What the customer does on Stripe's hosted page: pay by card (4242… unless the page's form
   * says another test card), or take a voucher or CLABE.
   */
  async function confirm(
    sessionId: string,
    cardNumber: string = STRIPE_TEST_CARDS.succeeds,
  ): Promise<StubSession> {
    const session = sessions.get(sessionId);
    if (!session || session.status !== "open") throw new Error(`session ${sessionId} not open`);
    const method = session.allowed_payment_method_types[0];
    const intent: StubIntent = {
      id: id("pi"),
      object: "payment_intent",
      amount: session.amount_total,
      currency: session.currency,
      status: "requires_action",
      payment_method_types: [method],
      next_action: null,
      latest_charge: null,
      customer: session.customer,
      metadata: ((sessionIntentData.get(session.id)?.metadata as Record<string, string>) ??
        {}) as Record<string, string>,
      payment_method: null,
      setup_future_usage: null,
      last_payment_error: null,
      description: (sessionIntentData.get(session.id)?.description as string) ?? null,
    };
    if (method === "card") {
      // The customer is at the page: a card that asks for authentication is authenticated here.
      const saving = sessionIntentData.get(session.id)?.setup_future_usage === "off_session";
      const card = paymentMethodFor(cardNumber, saving ? session.customer : null);
      Object.assign(intent, {
        status: "succeeded",
        latest_charge: chargeOf(card),
        payment_method: card.id,
        setup_future_usage: saving ? "off_session" : null,
      });
      Object.assign(session, { status: "complete", payment_status: "paid" });
    } else if (method === "oxxo") {
      const days = Number(
        (session.payment_method_options.oxxo as Params | undefined)?.expires_after_days ?? 3,
      );
      intent.next_action = {
        type: "oxxo_display_details",
        oxxo_display_details: {
          number: digits(32),
          expires_after: Math.floor(Date.now() / 1000) + days * 24 * 3600,
          hosted_voucher_url: `${base}/oxxo/voucher/${intent.id}`,
        },
      };
      Object.assign(session, { status: "complete" });
    } else {
      const first17 = `002180${digits(11)}`;
      intent.next_action = {
        type: "display_bank_transfer_instructions",
        display_bank_transfer_instructions: {
          type: "mx_bank_transfer",
          amount_remaining: session.amount_total,
          currency: session.currency,
          reference: digits(7),
          hosted_instructions_url: `${base}/bank_transfers/instructions/${intent.id}`,
          financial_addresses: [
            {
              type: "spei",
              supported_networks: ["spei"],
              spei: {
                clabe: `${first17}${clabeControlDigit(first17)}`,
                bank_name: "BANAMEX",
                bank_code: "002",
                account_holder_name: "Conecta Movil SA de CV",
              },
            },
          ],
        },
      };
      Object.assign(session, { status: "complete" });
    }
    intents.set(intent.id, intent);
    session.payment_intent = intent.id;
    session.url = null;
    await deliver("checkout.session.completed", session);
    return session;
  }

  /** The voucher paid at a store, the transfer received; or the voucher lapsed unpaid. */
  async function settleAsync(sessionId: string, outcome: "succeeded" | "failed") {
    const session = sessions.get(sessionId)!;
    const intent = intents.get(session.payment_intent!)!;
    if (outcome === "succeeded") {
      intent.status = "succeeded";
      intent.next_action = null;
      session.payment_status = "paid";
      return deliver("checkout.session.async_payment_succeeded", session);
    }
    intent.status = "requires_payment_method";
    intent.next_action = null;
    return deliver("checkout.session.async_payment_failed", session);
  }

  /** The session reached its expires_at unpaid. */
  async function lapse(sessionId: string) {
    const session = sessions.get(sessionId)!;
    Object.assign(session, { status: "expired", url: null });
    return deliver("checkout.session.expired", session);
  }

  async function api(request: StubRequest): Promise<{ status: number; body: unknown }> {
    const { method, path } = request;
    const auth = String(request.headers.authorization ?? "");
    if (!/^Bearer (sk|rk)_(test|live)_\w+$/.test(auth)) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided");
    }
    const key = String(request.headers["idempotency-key"] ?? "");
    if (method === "POST" && key && idempotent.has(key)) return idempotent.get(key)!;
    const remember = (answer: { status: number; body: unknown }) => {
      if (key) idempotent.set(key, answer);
      return answer;
    };
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (request.params.customer && !customers.has(String(request.params.customer))) {
        return stripeError(
          400,
          "invalid_request_error",
          `No such customer: '${String(request.params.customer)}'`,
          "resource_missing",
        );
      }
      const session = sessionFromParams(request.params);
      sessions.set(session.id, session);
      sessionIntentData.set(session.id, (request.params.payment_intent_data as Params) ?? {});
      return remember({ status: 200, body: session });
    }
    if (method === "POST" && path === "/v1/customers") {
      const customer: StubCustomer = {
        id: id("cus"),
        object: "customer",
        email: (request.params.email as string) ?? null,
        metadata: (request.params.metadata as Record<string, string>) ?? {},
        preferred_locales: (request.params.preferred_locales as string[]) ?? [],
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return remember({ status: 200, body: customer });
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      return remember(await createIntent(request.params));
    }
    const detach = /^\/v1\/payment_methods\/([\w]+)\/detach$/.exec(path);
    if (detach && method === "POST") {
      const found = paymentMethods.get(detach[1]);
      if (!found) {
        return stripeError(
          404,
          "invalid_request_error",
          `No such PaymentMethod: '${detach[1]}'`,
          "resource_missing",
        );
      }
      if (!found.customer) {
        return stripeError(
          400,
          "invalid_request_error",
          "The payment method you provided is not attached to a customer so detachment is impossible.",
          "payment_method_unexpected_state",
        );
      }
      found.customer = null;
      return { status: 200, body: methodView(found) };
    }
    let match = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path);
    if (match) {
      const session = sessions.get(match[1]);
      if (!session) {
        return stripeError(
          404,
          "invalid_request_error",
          `No such checkout.session: '${match[1]}'`,
          "resource_missing",
        );
      }
      if (method === "GET" && !match[2]) return { status: 200, body: session };
      if (method === "POST" && match[2]) {
        if (session.status !== "open") {
          return stripeError(
            400,
            "invalid_request_error",
            "Only Checkout Sessions with a status of `open` can be expired.",
          );
        }
        Object.assign(session, { status: "expired", url: null });
        // Stripe answers first and notifies later.
        void deliver("checkout.session.expired", session);
        return { status: 200, body: { ...session } };
      }
    }
    match = /^\/v1\/payment_intents\/([\w]+)(\/cancel)?$/.exec(path);
    if (match) {
      const intent = intents.get(match[1]);
      if (!intent) {
        return stripeError(
          404,
          "invalid_request_error",
          `No such payment_intent: '${match[1]}'`,
          "resource_missing",
        );
      }
      const expand = (request.params.expand as string[] | undefined) ?? [];
      if (method === "GET" && !match[2]) return { status: 200, body: intentView(intent, expand) };
      if (method === "POST" && match[2]) {
        if (intent.status === "succeeded" || intent.status === "canceled") {
          return stripeError(
            400,
            "invalid_request_error",
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            "payment_intent_unexpected_state",
          );
        }
        Object.assign(intent, { status: "canceled", next_action: null });
        return { status: 200, body: intent };
      }
    }
    return stripeError(
      404,
      "invalid_request_error",
      `Unrecognized request URL (${method}: ${path})`,
    );
  }

  /**
   * A PaymentIntent created and confirmed at once with a saved card (the store's charges of a
   * saved card), as Stripe answers it: 200 with the intent, or 402 with a `card_error`.
   */
  async function createIntent(params: Params): Promise<{ status: number; body: unknown }> {
    const paymentMethod = paymentMethods.get(String(params.payment_method ?? ""));
    const customer = String(params.customer ?? "");
    if (!paymentMethod) {
      return stripeError(
        400,
        "invalid_request_error",
        `No such PaymentMethod: '${String(params.payment_method)}'`,
        "resource_missing",
      );
    }
    if (paymentMethod.customer !== customer) {
      return stripeError(
        400,
        "invalid_request_error",
        "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again.",
        "payment_method_unexpected_state",
      );
    }
    const offSession = params.off_session === "true";
    const expand = (params.expand as string[] | undefined) ?? [];
    const intent: StubIntent = {
      id: id("pi"),
      object: "payment_intent",
      amount: Number(params.amount),
      currency: String(params.currency ?? "mxn"),
      status: "requires_payment_method",
      payment_method_types: (params.allowed_payment_method_types as string[] | undefined) ?? [
        "card",
      ],
      next_action: null,
      latest_charge: null,
      customer,
      metadata: (params.metadata as Record<string, string>) ?? {},
      payment_method: paymentMethod.id,
      setup_future_usage: null,
      last_payment_error: null,
      description: (params.description as string) ?? null,
    };
    intents.set(intent.id, intent);
    const number = paymentMethod.testNumber;
    const declineOf = (code: string, declineCode: string, message: string) => {
      const error = {
        type: "card_error",
        code,
        decline_code: declineCode,
        message,
        payment_method: methodView(paymentMethod),
      };
      Object.assign(intent, { status: "requires_payment_method", last_payment_error: error });
      void deliver("payment_intent.payment_failed", { ...intent });
      return { status: 402, body: { error: { ...error, payment_intent: { ...intent } } } };
    };
    if (number === STRIPE_TEST_CARDS.authenticationRequired) {
      if (offSession) {
        return declineOf(
          "authentication_required",
          "authentication_required",
          "Your card was declined. This transaction requires authentication.",
        );
      }
      Object.assign(intent, {
        status: "requires_action",
        next_action: { type: "use_stripe_sdk", use_stripe_sdk: {} },
      });
      return { status: 200, body: intentView(intent, expand) };
    }
    if (number === STRIPE_TEST_CARDS.declinesAfterAttaching) {
      return declineOf("card_declined", "generic_decline", "Your card was declined.");
    }
    if (number === STRIPE_TEST_CARDS.insufficientFunds) {
      return declineOf("card_declined", "insufficient_funds", "Your card has insufficient funds.");
    }
    Object.assign(intent, { status: "succeeded", latest_charge: chargeOf(paymentMethod) });
    void deliver("payment_intent.succeeded", { ...intent });
    return { status: 200, body: intentView(intent, expand) };
  }

  function hostedPage(session: StubSession): string {
    const method = session.allowed_payment_method_types[0];
    const label = method === "card" ? "Pagar" : "Confirmar";
    return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Stripe Checkout (stand-in)</title></head>
<body><h1>Stripe Checkout (stand-in)</h1><p data-method="${method}">${session.amount_total / 100} ${session.currency.toUpperCase()}</p>
<form method="post" action="/c/pay/${session.id}">${
      method === "card"
        ? `<p><label for="card">Número de tarjeta</label> <input id="card" name="card" value="${STRIPE_TEST_CARDS.succeeds}"></p>`
        : ""
    }<button type="submit">${label}</button></form>
<p><a href="${session.cancel_url}">Volver a la tienda</a></p></body></html>`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse, raw: string) {
    const url = new URL(request.url ?? "/", base);
    const hosted = /^\/c\/pay\/([\w]+)$/.exec(url.pathname);
    if (hosted) {
      const session = sessions.get(hosted[1]);
      if (!session || session.status !== "open") {
        response.writeHead(410, { "Content-Type": "text/plain" }).end("session closed");
        return;
      }
      if (request.method === "POST") {
        const typed = new URLSearchParams(raw).get("card")?.replace(/\s/g, "");
        await confirm(session.id, typed || STRIPE_TEST_CARDS.succeeds);
        response
          .writeHead(303, {
            Location: session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id),
          })
          .end();
        return;
      }
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(hostedPage(session));
      return;
    }
    const params = parseStripeForm(request.method === "GET" ? url.search.slice(1) : raw);
    const stubRequest: StubRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      headers: request.headers,
      params,
    };
    requests.push(stubRequest);
    if (faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
    const { status, body } =
      faults.failWithStatus > 0
        ? stripeError(faults.failWithStatus, "api_error", "Something went wrong on Stripe's end.")
        : await api(stubRequest);
    if (response.destroyed) return;
    response.writeHead(status, {
      "Content-Type": "application/json",
      "Request-Id": `req_${randomBytes(8).toString("hex")}`,
      "Stripe-Should-Retry": "false",
    });
    response.end(JSON.stringify(body));
  }

  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      handle(request, response, raw).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    events,
    faults,
    sessions,
    intents,
    customers,
    paymentMethods,
    setWebhookUrl(url: string) {
      webhookUrl = url;
    },
    /** The session created for a store payment id. */
    sessionOf(paymentId: string): StubSession | undefined {
      return [...sessions.values()].find((session) => session.client_reference_id === paymentId);
    },
    confirm,
    settleAsync,
    lapse,
    /** Sends the events held back so far, in the order given. */
    async release(order: "as-created" | "reversed" = "as-created") {
      const held = events.filter((event) => event.status === 0);
      if (order === "reversed") held.reverse();
      for (const event of held) event.status = await this.redeliver(event);
    },
    /** Sends any event again, exactly as first signed (a Stripe retry). */
    async redeliver(event: DeliveredEvent) {
      const response = await fetch(webhookUrl!, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": event.header },
        body: event.payload,
      });
      return response.status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeStub = Awaited<ReturnType<typeof startStripeStub>>;
