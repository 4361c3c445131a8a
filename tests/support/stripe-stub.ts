import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { clabeControlDigit } from "../../app/payments/clabe";

/**
 * A local stand-in for api.stripe.com and for Stripe's hosted Checkout page, speaking Stripe's
 * documented wire format: form-encoded requests with bracketed keys, JSON objects shaped like
 * `Stripe.Checkout.Session` and `Stripe.PaymentIntent`, errors as `{"error":{type,message}}`,
 * and webhooks signed with the SDK's own `generateTestHeaderString`.
 *
 * What it cannot be: Stripe's eligibility rules (which methods an account may offer), its
 * decline logic, or its real voucher and CLABE issuing. Those were not tried (README, 0065).
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
}

export type StubEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "checkout.session.expired";

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
      customer: params.customer_creation === "always" ? id("cus") : null,
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

  function intentView(intent: StubIntent, expand: string[]) {
    if (expand.includes("latest_charge") && intent.latest_charge) {
      return { ...intent, latest_charge: charges.get(intent.latest_charge) };
    }
    return intent;
  }

  async function deliver(type: StubEventType, session: StubSession): Promise<DeliveredEvent> {
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
        data: { object: session },
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

  /** What the customer does on Stripe's hosted page: pay by card, or take a voucher or CLABE. */
  async function confirm(sessionId: string): Promise<StubSession> {
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
      metadata: {},
    };
    if (method === "card") {
      const charge = id("ch");
      charges.set(charge, {
        id: charge,
        object: "charge",
        payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" } },
      });
      Object.assign(intent, { status: "succeeded", latest_charge: charge });
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
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const key = String(request.headers["idempotency-key"] ?? "");
      const earlier = key ? idempotent.get(key) : undefined;
      if (earlier) return earlier;
      const session = sessionFromParams(request.params);
      sessions.set(session.id, session);
      const answer = { status: 200, body: session };
      if (key) idempotent.set(key, answer);
      return answer;
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

  function hostedPage(session: StubSession): string {
    const method = session.allowed_payment_method_types[0];
    const label = method === "card" ? "Pagar" : "Confirmar";
    return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Stripe Checkout (stand-in)</title></head>
<body><h1>Stripe Checkout (stand-in)</h1><p data-method="${method}">${session.amount_total / 100} ${session.currency.toUpperCase()}</p>
<form method="post" action="/c/pay/${session.id}"><button type="submit">${label}</button></form>
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
        await confirm(session.id);
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
