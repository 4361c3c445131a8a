import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { placeOrder, type Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { createPaymentService, type PaymentService } from "~/payments/payments.server";
import { isPaymentProviderUnavailable, type PaymentProvider } from "~/payments/provider";
import {
  ensurePaymentCustomer,
  listSavedCards,
  removeSavedCard,
  type SavedCard,
} from "~/payments/saved-cards.server";
import { createStripeProvider } from "~/payments/stripe/stripe.server";
import { openDatabaseUnderTest } from "../support/test-database";
import { startStripeStub, STRIPE_TEST_CARDS, type StripeStub } from "../support/stripe-stub";

/**
 * Saved cards on Stripe (decision 0119), through the official SDK against the local stand-in of
 * api.stripe.com: the account's Customer, a card saved with a Checkout payment
 * (`setup_future_usage: off_session`), charges of it on-session and off-session with their
 * idempotency keys, Stripe's declines and `authentication_required`, and detaching.
 */

const WEBHOOK_SECRET = "whsec_savedCardsSecret0123456789";
const STORE = "https://tienda.test";
const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

let stub: StripeStub;
let receiver: Server;
let db: Db;
let provider: PaymentProvider;
let payments: PaymentService;
let order: Order;
let notificationsHandled: string[];

beforeAll(async () => {
  stub = await startStripeStub({ webhookSecret: WEBHOOK_SECRET });
  receiver = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", async () => {
      try {
        const result = await payments.handleNotification(
          raw,
          new Headers(request.headers as Record<string, string>),
        );
        notificationsHandled.push(result);
        response.writeHead(result === "invalid" ? 401 : 200).end();
      } catch {
        notificationsHandled.push("500");
        response.writeHead(500).end();
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

beforeEach(async () => {
  Object.assign(stub.faults, { delayMs: 0, failWithStatus: 0, holdWebhooks: false });
  stub.requests.length = 0;
  stub.events.length = 0;
  notificationsHandled = [];
  db = await openDatabaseUnderTest();
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  provider = createStripeProvider({
    secretKey: "sk_test_savedCardsKey0123456789",
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: stub.url,
    timeoutMs: 2_000,
    storeOrigin: STORE,
  });
  payments = createPaymentService({ db, provider, logger });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  order = await newOrder();
});
afterEach(async () => {
  await db.destroy();
});

async function newOrder(): Promise<Order> {
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  const { order: placed } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer: {
      full_name: "Ana López",
      email: "ana@example.com",
      phone_number: "5512345678",
      sim_type: "esim",
      delivery: null,
    },
    lines: priceCart([{ id: "conecta-150", quantity: 1 }], catalogue.find).lines,
  });
  return placed;
}

const lastRequest = (path: string) =>
  [...stub.requests].reverse().find((request) => request.path === path);

/** Ana pays an order on Stripe's page with `number`, ticking "guardar la tarjeta". */
async function saveCard(number: string = STRIPE_TEST_CARDS.succeeds): Promise<SavedCard> {
  const customerRef = await ensurePaymentCustomer(db, provider, {
    sub: "sub-ana",
    email: "ana@example.com",
  });
  const paying = await newOrder();
  const begun = await payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: paying.ref,
    amount: paying.total,
    method: "card",
    description: `Pedido ${paying.folio}`,
    returnUrl: `${STORE}/confirmation?pedido=${paying.ref}`,
    origin: STORE,
    customerEmail: "ana@example.com",
    saveCardFor: customerRef,
  });
  if (begun.kind !== "redirect") throw new Error("expected Stripe's page");
  await stub.confirm(stub.sessionOf(begun.payment.id)!.id, number);
  await vi.waitFor(async () => {
    expect(await listSavedCards(db, "sub-ana", "stripe")).not.toHaveLength(0);
  });
  return (await listSavedCards(db, "sub-ana", "stripe"))[0]!;
}

function charge(card: SavedCard, options: { offSession: boolean; idempotencyKey?: string }) {
  return payments.chargeSavedCard({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    description: `Pedido ${order.folio}`,
    card,
    ...options,
  });
}

describe("a card saved on Stripe with a payment", () => {
  it("makes the account's Customer once, saves the card to it off-session, and keeps only brand, last four and expiry", async () => {
    const first = await ensurePaymentCustomer(db, provider, {
      sub: "sub-ana",
      email: "ana@example.com",
    });
    const again = await ensurePaymentCustomer(db, provider, {
      sub: "sub-ana",
      email: "ana@example.com",
    });
    expect(again).toBe(first);
    const created = stub.requests.filter((request) => request.path === "/v1/customers");
    expect(created).toHaveLength(1);
    expect(created[0]!.headers["idempotency-key"]).toBe("customer-sub-ana");
    expect(created[0]!.params).toMatchObject({
      email: "ana@example.com",
      metadata: { store_origin: STORE },
    });

    const card = await saveCard();

    const session = lastRequest("/v1/checkout/sessions")!.params;
    expect(session).toMatchObject({
      customer: first,
      payment_intent_data: { setup_future_usage: "off_session" },
      allowed_payment_method_types: ["card"],
    });
    // Stripe takes the address from the Customer: both at once are refused.
    expect(session.customer_email).toBeUndefined();
    expect(card).toMatchObject({
      provider: "stripe",
      customerRef: first,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
    });
    expect(card.methodRef).toMatch(/^pm_test_/);
    expect(stub.paymentMethods.get(card.methodRef)?.customer).toBe(first);
    const row = await db.selectFrom("saved_cards").selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(STRIPE_TEST_CARDS.succeeds);
  });

  it("a payment without the box saves nothing and names no Customer", async () => {
    await payments.begin({
      purpose: ORDER_PAYMENT_PURPOSE,
      reference: order.ref,
      amount: order.total,
      method: "card",
      description: "Pedido",
      returnUrl: `${STORE}/x`,
      origin: STORE,
      customerEmail: "ana@example.com",
    });
    const session = lastRequest("/v1/checkout/sessions")!.params;
    expect(session.customer).toBeUndefined();
    expect(session.customer_email).toBe("ana@example.com");
    expect(
      (session.payment_intent_data as Record<string, unknown>).setup_future_usage,
    ).toBeUndefined();
  });
});

describe("charging a saved card on Stripe", () => {
  it("off-session: confirms a PaymentIntent with the Customer, the card and the store's idempotency key", async () => {
    const card = await saveCard();
    const result = await charge(card, {
      offSession: true,
      idempotencyKey: "auto-topup:5512345678:paquete:2026-12-01T00:00:00.000Z:1",
    });
    expect(result.kind).toBe("approved");
    const request = lastRequest("/v1/payment_intents")!;
    expect(request.headers["idempotency-key"]).toBe(
      "auto-topup:5512345678:paquete:2026-12-01T00:00:00.000Z:1",
    );
    expect(request.params).toMatchObject({
      amount: "15000",
      currency: "mxn",
      customer: card.customerRef,
      payment_method: card.methodRef,
      confirm: "true",
      off_session: "true",
      allowed_payment_method_types: ["card"],
      metadata: { payment_id: result.payment.id, store_origin: STORE, charge: "saved_card" },
    });
    expect(result.payment).toMatchObject({
      status: "approved",
      card_brand: "visa",
      card_last4: "4242",
      saved_card_id: card.id,
    });
    expect(result.payment.provider_reference).toMatch(/^pi_test_/);
    // Stripe's payment_intent.succeeded tells it again: applied once.
    await vi.waitFor(() => expect(notificationsHandled).toContain("duplicate"));
  });

  it("the same idempotency key twice is one charge at Stripe", async () => {
    const card = await saveCard();
    const input = {
      paymentId: "pay_same",
      amount: 150,
      currency: "MXN" as const,
      description: "Recarga",
      customerRef: card.customerRef,
      methodRef: card.methodRef,
      offSession: true,
      idempotencyKey: "auto-topup:5512345678:sin-paquete:2026-11-25:1",
    };
    const [first, second] = [
      await provider.chargeSavedCard(input),
      await provider.chargeSavedCard(input),
    ];
    expect(second.providerReference).toBe(first.providerReference);
    const made = [...stub.intents.values()].filter(
      (intent) => intent.metadata.payment_id === "pay_same",
    );
    expect(made).toHaveLength(1);
  });

  it("a card that needs authentication off-session: declined with authentication_required, not charged", async () => {
    const card = await saveCard(STRIPE_TEST_CARDS.authenticationRequired);
    const result = await charge(card, { offSession: true, idempotencyKey: "auto-3ds-1" });
    expect(result).toMatchObject({ kind: "declined", reason: "authentication_required" });
    expect(result.payment.status).toBe("declined");
    const intent = stub.intents.get(result.payment.provider_reference!);
    expect(intent).toMatchObject({ status: "requires_payment_method" });
  });

  it("a card that needs authentication on-session: its intent let go, for the hosted page", async () => {
    const card = await saveCard(STRIPE_TEST_CARDS.authenticationRequired);
    const result = await charge(card, { offSession: false });
    expect(result).toMatchObject({ kind: "declined", reason: "authentication_required" });
    expect(lastRequest("/v1/payment_intents")!.params.off_session).toBeUndefined();
    expect(stub.intents.get(result.payment.provider_reference!)?.status).toBe("canceled");
    // The hosted page is then opened for the same order, by card.
    const hosted = await payments.begin({
      purpose: ORDER_PAYMENT_PURPOSE,
      reference: order.ref,
      amount: order.total,
      method: "card",
      description: "Pedido",
      returnUrl: `${STORE}/x`,
      origin: STORE,
      customerEmail: null,
    });
    expect(hosted.kind).toBe("redirect");
  });

  it("Stripe's declines keep their reason; an order stays unpaid", async () => {
    const declined = await saveCard(STRIPE_TEST_CARDS.declinesAfterAttaching);
    expect(await charge(declined, { offSession: true, idempotencyKey: "d-1" })).toMatchObject({
      kind: "declined",
      reason: "card_declined",
    });
    const poor = await saveCard(STRIPE_TEST_CARDS.insufficientFunds);
    expect(await charge(poor, { offSession: true, idempotencyKey: "d-2" })).toMatchObject({
      kind: "declined",
      reason: "insufficient_funds",
    });
  });

  it("Stripe out of reach: the provider's failure, for the scheduler to try again later", async () => {
    const card = await saveCard();
    stub.faults.failWithStatus = 500;
    const error = await charge(card, { offSession: true, idempotencyKey: "down-1" }).catch(
      (caught: unknown) => caught,
    );
    expect(isPaymentProviderUnavailable(error)).toBe(true);
    const [payment] = await db
      .selectFrom("payments")
      .selectAll()
      .where("reference", "=", order.ref)
      .execute();
    expect(payment).toMatchObject({ status: "pending", saved_card_id: card.id });
  });

  it("removing a card detaches its PaymentMethod at Stripe; a second removal is harmless", async () => {
    const card = await saveCard();
    expect(
      await removeSavedCard(db, provider, { accountSub: "sub-ana", id: card.id }),
    ).toMatchObject({
      id: card.id,
    });
    expect(lastRequest(`/v1/payment_methods/${card.methodRef}/detach`)).toBeDefined();
    expect(stub.paymentMethods.get(card.methodRef)?.customer).toBeNull();
    expect(await listSavedCards(db, "sub-ana", "stripe")).toEqual([]);
    await expect(provider.detachCard(card.methodRef)).resolves.toBeUndefined();
    // Another account's card, or one gone: nothing.
    expect(await removeSavedCard(db, provider, { accountSub: "sub-beto", id: card.id })).toBeNull();
  });
});
