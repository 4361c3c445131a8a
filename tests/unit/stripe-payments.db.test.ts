import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { findOrder, placeOrder, type Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../support/test-database";
import { isValidClabe } from "~/payments/clabe";
import {
  createPaymentService,
  paymentInstructions,
  type PaymentService,
} from "~/payments/payments.server";
import { PaymentProviderUnavailable, type PaymentMethod } from "~/payments/provider";
import { createStripeProvider } from "~/payments/stripe/stripe.server";
import { startStripeStub, type StripeStub } from "../support/stripe-stub";

/**
 * The Stripe adapter over HTTP: the official SDK talks to a local stand-in of api.stripe.com
 * (tests/support/stripe-stub.ts), and the stand-in's webhooks, signed with the SDK's
 * generateTestHeaderString, reach the store's notification handling through a real socket.
 */

const WEBHOOK_SECRET = "whsec_unitTestSecret0123456789";
const SECRET_KEY = "sk_test_unitTestKey0123456789";
const STORE = "https://tienda.test";

const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
const customer = {
  full_name: "Ana López",
  email: "ana@example.com",
  phone_number: "5512345678",
  sim_type: "physical" as const,
  delivery: {
    street: "Calle 1",
    exterior_number: "10",
    interior_number: undefined,
    neighborhood: "Centro",
    postal_code: "06000",
    municipality: "Cuauhtémoc",
    state: "CMX" as const,
  },
};

let stub: StripeStub;
let receiver: Server;
let db: Db;
let payments: PaymentService;
let order: Order;
/** The store's answers to the stand-in's webhooks. */
let notificationsHandled: string[];

beforeAll(async () => {
  stub = await startStripeStub({ webhookSecret: WEBHOOK_SECRET });
  receiver = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", async () => {
      const headers = new Headers(request.headers as Record<string, string>);
      try {
        const result = await payments.handleNotification(raw, headers);
        notificationsHandled.push(result);
        response.writeHead(result === "invalid" ? 401 : result === "rejected" ? 422 : 200).end();
      } catch (error) {
        notificationsHandled.push(error instanceof PaymentProviderUnavailable ? "503" : "500");
        response.writeHead(error instanceof PaymentProviderUnavailable ? 503 : 500).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  stub.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  await stub.close();
  await new Promise((resolve) => receiver.close(resolve));
});

function stripeProvider(overrides: { apiUrl?: string; timeoutMs?: number } = {}) {
  return createStripeProvider({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: overrides.apiUrl ?? stub.url,
    timeoutMs: overrides.timeoutMs ?? 2_000,
    storeOrigin: STORE,
  });
}

beforeEach(async () => {
  Object.assign(stub.faults, { delayMs: 0, failWithStatus: 0, holdWebhooks: false });
  stub.requests.length = 0;
  stub.events.length = 0;
  notificationsHandled = [];
  db = await openDatabaseUnderTest();
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  payments = createPaymentService({ db, provider: stripeProvider(), logger, voucherHours: 72 });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  ({ order } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer,
    lines: priceCart([{ id: "conecta-200", quantity: 2 }], catalogue.find).lines,
  }));
});
afterEach(async () => {
  await db.destroy();
});

function begin(method: PaymentMethod) {
  return payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    method,
    description: `Pedido ${order.folio}`,
    returnUrl: `${STORE}/confirmation?pedido=${order.ref}`,
    origin: STORE,
    customerEmail: "ana@example.com",
  });
}

/** The customer at Stripe's page: pays by card, or takes the voucher or transfer details. */
async function confirmAtStripe(method: PaymentMethod) {
  const started = await begin(method);
  if (started.kind !== "redirect") throw new Error("expected Stripe's page");
  const session = stub.sessionOf(started.payment.id)!;
  expect(started.url).toBe(`${stub.url}/c/pay/${session.id}`);
  await stub.confirm(session.id);
  return { payment: started.payment, session };
}

const orderStatus = async () => (await findOrder(db, order.ref))?.status;
const latestPayment = async () => (await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref))!;

describe("opening a Checkout Session", () => {
  it.each([
    ["card", "card"],
    ["cash", "oxxo"],
    ["spei", "customer_balance"],
  ] as const)(
    "for %s: MXN in centavos, only %s, the store's payment id, and the order's page to come back to",
    async (method, stripeType) => {
      const result = await begin(method);
      expect(result.kind).toBe("redirect");
      const created = stub.requests.find(
        (request) => request.method === "POST" && request.path === "/v1/checkout/sessions",
      )!;
      expect(created.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(created.headers["idempotency-key"]).toBe(`checkout-${result.payment.id}`);
      const params = created.params as Record<string, unknown>;
      expect(params).toMatchObject({
        mode: "payment",
        locale: "es-419",
        allowed_payment_method_types: [stripeType],
        client_reference_id: result.payment.id,
        metadata: { payment_id: result.payment.id, store_origin: STORE },
        success_url: `${STORE}/confirmation?pedido=${order.ref}`,
        customer_email: "ana@example.com",
      });
      expect(params.payment_method_types).toBeUndefined();
      expect(params.line_items).toEqual([
        {
          quantity: "1",
          price_data: {
            currency: "mxn",
            unit_amount: String(order.total * 100),
            product_data: { name: `Pedido ${order.folio}` },
          },
        },
      ]);
      // Stripe keeps a session open at most 24 hours.
      const expiresAt = Number(params.expires_at as string) * 1000;
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
      expect(expiresAt - Date.now()).toBeGreaterThan(23 * 3600_000);
      if (method === "cash") {
        expect(params.payment_method_options).toEqual({ oxxo: { expires_after_days: "3" } });
      }
      if (method === "spei") {
        expect(params.customer_creation).toBe("always");
        expect(params.payment_method_options).toEqual({
          customer_balance: {
            funding_type: "bank_transfer",
            bank_transfer: { type: "mx_bank_transfer" },
          },
        });
      }
    },
  );

  it("sends the customer back to the same session when the form is sent twice", async () => {
    const first = await begin("card");
    const second = await begin("card");
    expect(second.payment.id).toBe(first.payment.id);
    expect(second.kind === "redirect" && second.url).toBe(first.kind === "redirect" && first.url);
    expect(stub.requests.filter((request) => request.method === "POST")).toHaveLength(1);
  });
});

describe("webhooks", () => {
  it("a card paid at Stripe marks the order paid, keeping only brand and last four", async () => {
    const { session } = await confirmAtStripe("card");
    expect(notificationsHandled).toEqual(["applied"]);
    expect(await orderStatus()).toBe("paid");
    expect(await latestPayment()).toMatchObject({
      status: "approved",
      provider: "stripe",
      provider_reference: session.id,
      card_brand: "visa",
      card_last4: "4242",
    });
  });

  it("an OXXO voucher: pending with Stripe's number and voucher page; paid when Stripe says so", async () => {
    await confirmAtStripe("cash");
    expect(await orderStatus()).toBe("pending_payment");
    const voucher = paymentInstructions(await latestPayment());
    const intent = [...stub.intents.values()].at(-1)!;
    const details = intent.next_action!.oxxo_display_details as Record<string, string>;
    expect(voucher).toEqual({
      method: "cash",
      reference: details.number,
      hostedUrl: details.hosted_voucher_url,
      expiresAt: expect.any(String),
    });
    // The store's deadline (72 h), earlier than Stripe's whole days.
    expect(Date.parse(voucher!.expiresAt) - Date.now()).toBeLessThanOrEqual(72 * 3600_000);

    const session = stub.sessionOf((await latestPayment()).id)!;
    await stub.settleAsync(session.id, "succeeded");
    expect(await orderStatus()).toBe("paid");
    expect(notificationsHandled).toEqual(["pending", "applied"]);
  });

  it("a SPEI transfer: a CLABE with a valid control digit, the reference and the beneficiary", async () => {
    await confirmAtStripe("spei");
    const transfer = paymentInstructions(await latestPayment());
    expect(transfer).toMatchObject({
      method: "spei",
      bank: "BANAMEX",
      beneficiary: "Conecta Movil SA de CV",
      reference: expect.stringMatching(/^\d{7}$/),
    });
    expect(transfer?.method === "spei" && isValidClabe(transfer.clabe)).toBe(true);
    await stub.settleAsync(stub.sessionOf((await latestPayment()).id)!.id, "succeeded");
    expect(await orderStatus()).toBe("paid");
  });

  it("a voucher Stripe reports failed (lapsed unpaid) cancels the order; a later success changes nothing", async () => {
    await confirmAtStripe("cash");
    const session = stub.sessionOf((await latestPayment()).id)!;
    await stub.settleAsync(session.id, "failed");
    expect(await orderStatus()).toBe("cancelled");
    expect((await latestPayment()).status).toBe("expired");
    await stub.settleAsync(session.id, "succeeded");
    expect(await orderStatus()).toBe("cancelled");
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "payment notification for a payment no longer pending" }),
    );
  });

  it("a card session that expires unpaid ends that payment only: the order can still be paid", async () => {
    const started = await begin("card");
    await stub.lapse(stub.sessionOf(started.payment.id)!.id);
    expect((await latestPayment()).status).toBe("expired");
    expect(await orderStatus()).toBe("pending_payment");
    const again = await begin("card");
    expect(again.payment.id).not.toBe(started.payment.id);
    expect(again.kind).toBe("redirect");
  });

  it("replays, duplicates and events out of order apply the payment once", async () => {
    stub.faults.holdWebhooks = true;
    const { session } = await confirmAtStripe("cash");
    await stub.settleAsync(session.id, "succeeded");
    // Stripe delivers the success first, then the completion; then everything again.
    await stub.release("reversed");
    expect(await orderStatus()).toBe("paid");
    for (const event of stub.events) expect(await stub.redeliver(event)).toBe(200);
    expect(notificationsHandled).toEqual(["applied", "duplicate", "duplicate", "duplicate"]);
    expect(await orderStatus()).toBe("paid");
    const rows = await db.selectFrom("payments").select("status").execute();
    expect(rows).toEqual([{ status: "approved" }]);
  });

  it("refuses a forged, altered, stale or unsigned event", async () => {
    const { session } = await confirmAtStripe("card");
    const genuine = stub.events.at(-1)!;
    const post = (body: string, signature?: string) =>
      payments.handleNotification(
        body,
        new Headers(signature ? { "Stripe-Signature": signature } : {}),
      );
    const altered = genuine.payload.replace(`"${session.id}"`, `"cs_test_someoneElse"`);
    expect(await post(altered, genuine.header)).toBe("invalid");
    const forged = Stripe.webhooks.generateTestHeaderString({
      payload: genuine.payload,
      secret: "whsec_notTheStoresSecret",
    });
    expect(await post(genuine.payload, forged)).toBe("invalid");
    const stale = Stripe.webhooks.generateTestHeaderString({
      payload: genuine.payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(await post(genuine.payload, stale)).toBe("invalid");
    expect(await post(genuine.payload)).toBe("invalid");
  });

  it("ignores another site's sessions on the same account and events it does not act on", async () => {
    const foreign = JSON.stringify({
      id: "evt_test_foreign",
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id: "cs_test_foreign",
          object: "checkout.session",
          status: "complete",
          payment_status: "paid",
          amount_total: 10_000,
          currency: "mxn",
          metadata: { payment_id: "pay_staging", store_origin: "https://staging.tienda.test" },
          client_reference_id: "pay_staging",
          payment_intent: null,
        },
      },
    });
    const other = JSON.stringify({
      id: "evt_test_other",
      object: "event",
      type: "customer.created",
      data: { object: { id: "cus_1", object: "customer" } },
    });
    for (const payload of [foreign, other]) {
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      expect(
        await payments.handleNotification(payload, new Headers({ "Stripe-Signature": header })),
      ).toBe("duplicate");
    }
    expect(await db.selectFrom("payment_events").selectAll().execute()).toEqual([]);
  });

  it("a correctly signed event for another amount changes nothing", async () => {
    const started = await begin("card");
    const session = { ...stub.sessionOf(started.payment.id)!, status: "complete" };
    const payload = JSON.stringify({
      id: "evt_test_cheaper",
      object: "event",
      type: "checkout.session.completed",
      data: { object: { ...session, payment_status: "paid", amount_total: 100 } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(
      await payments.handleNotification(payload, new Headers({ "Stripe-Signature": header })),
    ).toBe("rejected");
    expect(await orderStatus()).toBe("pending_payment");
  });
});

describe("when the customer is back before the webhook", () => {
  it("the order's page learns the voucher, then the payment, by asking Stripe", async () => {
    stub.faults.holdWebhooks = true;
    const { payment, session } = await confirmAtStripe("cash");
    const refreshed = await payments.refresh(await latestPayment());
    expect(refreshed.status).toBe("pending");
    expect(paymentInstructions(refreshed)?.method).toBe("cash");
    await stub.settleAsync(session.id, "succeeded");
    expect((await payments.refresh(refreshed)).status).toBe("approved");
    expect(await orderStatus()).toBe("paid");
    expect(payment.id).toBe(refreshed.id);
  });
});

describe("closing and lapsing", () => {
  it("choosing another method closes the voucher at Stripe (its intent cancelled) first", async () => {
    const { session } = await confirmAtStripe("cash");
    const switched = await begin("card");
    expect(switched.kind).toBe("redirect");
    expect(stub.intents.get(session.payment_intent!)!.status).toBe("canceled");
    const statuses = await db
      .selectFrom("payments")
      .select(["method", "status"])
      .orderBy("created_at")
      .execute();
    expect(statuses).toEqual([
      { method: "cash", status: "replaced" },
      { method: "card", status: "pending" },
    ]);
    expect(await orderStatus()).toBe("pending_payment");
  });

  it("an open session is expired at Stripe before another method is offered", async () => {
    const first = await begin("card");
    await begin("spei");
    expect(stub.sessionOf(first.payment.id)!.status).toBe("expired");
  });

  it("a transfer past the store's deadline is closed at Stripe and cancels the order", async () => {
    const { session } = await confirmAtStripe("spei");
    const overdue = new Date(Date.now() + 73 * 3600_000);
    expect(await payments.refreshOverdue(overdue)).toBe(1);
    expect(stub.intents.get(session.payment_intent!)!.status).toBe("canceled");
    expect((await latestPayment()).status).toBe("expired");
    expect(await orderStatus()).toBe("cancelled");
  });

  it("a transfer paid just before the deadline is applied, not cancelled", async () => {
    stub.faults.holdWebhooks = true;
    const { session } = await confirmAtStripe("spei");
    await stub.settleAsync(session.id, "succeeded");
    await payments.refreshOverdue(new Date(Date.now() + 73 * 3600_000));
    expect(await orderStatus()).toBe("paid");
  });
});

describe("when Stripe cannot be reached", () => {
  it.each([
    ["refuses connections", { apiUrl: "http://127.0.0.1:9" }],
    ["answers 500", { failWithStatus: 500 }],
    ["is too slow", { delayMs: 1_500, timeoutMs: 500 }],
  ] as const)(
    "%s: the payment cannot open, the order is kept, nothing breaks",
    async (_, fault) => {
      const provider = stripeProvider({
        apiUrl: "apiUrl" in fault ? fault.apiUrl : undefined,
        timeoutMs: "timeoutMs" in fault ? fault.timeoutMs : undefined,
      });
      if ("failWithStatus" in fault) stub.faults.failWithStatus = fault.failWithStatus;
      if ("delayMs" in fault) stub.faults.delayMs = fault.delayMs;
      payments = createPaymentService({ db, provider, logger, voucherHours: 72 });
      payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
      await expect(begin("cash")).rejects.toBeInstanceOf(PaymentProviderUnavailable);
      expect(await orderStatus()).toBe("pending_payment");
      // The order's page still shows: the refresh reports what is known here.
      const pending = await latestPayment();
      expect((await payments.refresh(pending)).status).toBe("pending");
    },
  );

  it("a webhook that needs Stripe while it is down is answered 503, so Stripe delivers it again", async () => {
    stub.faults.holdWebhooks = true;
    await confirmAtStripe("card");
    stub.faults.failWithStatus = 500;
    await stub.release();
    expect(notificationsHandled).toEqual(["503"]);
    expect(await orderStatus()).toBe("pending_payment");
    stub.faults.failWithStatus = 0;
    expect(await stub.redeliver(stub.events.at(-1)!)).toBe(200);
    expect(await orderStatus()).toBe("paid");
  });
});
