import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { findOrder, placeOrder, type Order } from "~/checkout/orders.server";
import { openDatabase, type Db } from "~/db/db.server";
import { createPaymentService, type PaymentService } from "./payments.server";
import { TEST_CARDS } from "./sandbox/card-rules";
import { createSandboxGateway, type SandboxGateway } from "./sandbox/sandbox.server";
import {
  deriveNotificationKey,
  SIGNATURE_HEADER,
  signNotification,
} from "./sandbox/signature.server";

const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
const key = deriveNotificationKey("unit-test-secret-that-is-long-enough-0123456789");
const origin = "http://tienda.test";

let db: Db;
let sandbox: SandboxGateway;
let payments: PaymentService;
let order: Order;
/** The notifications the sandbox posted, as the store's endpoint received them. */
let delivered: Array<{ url: string; body: string; headers: Headers }>;
/** Whether the store's endpoint is reachable (a lost notification must not lose the payment). */
let reachable: boolean;

beforeEach(async () => {
  db = await openDatabase({ dataDir: null });
  const catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  delivered = [];
  reachable = true;
  const fakeFetch = (async (url: string, init: RequestInit) => {
    if (!reachable) throw new Error("connect ECONNREFUSED");
    const headers = new Headers(init.headers);
    delivered.push({ url, body: String(init.body), headers });
    const result = await payments.handleNotification(String(init.body), headers);
    return new Response(null, { status: result === "invalid" ? 401 : 200 });
  }) as unknown as typeof fetch;
  sandbox = createSandboxGateway({ db, notificationKeys: [key], logger, fetch: fakeFetch });
  payments = createPaymentService({ db, provider: sandbox, logger });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  ({ order } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer: {
      full_name: "Ana López",
      email: "ana@example.com",
      phone_number: "5512345678",
      street: "Calle 1",
      exterior_number: "10",
      interior_number: undefined,
      neighborhood: "Centro",
      postal_code: "06000",
      municipality: "Cuauhtémoc",
      state: "CMX",
    },
    lines: priceCart([{ id: "conecta-200", quantity: 2 }], catalogue.find).lines,
  }));
});
afterEach(async () => {
  await db.destroy();
});

function begin() {
  return payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    description: `Pedido ${order.folio}`,
    returnUrl: `${origin}/confirmation?pedido=${order.ref}`,
    origin,
  });
}

async function checkoutIdOf(result: Awaited<ReturnType<typeof begin>>) {
  if (result.kind !== "redirect") throw new Error("expected a payment page");
  return result.url.split("/").pop()!;
}

describe("paying an order through the sandbox", () => {
  it("sends the customer to the sandbox page for the order's amount", async () => {
    const result = await begin();
    expect(result.kind).toBe("redirect");
    const checkout = await sandbox.findCheckout(await checkoutIdOf(result));
    expect(checkout).toMatchObject({
      amount: 400,
      currency: "MXN",
      status: "open",
      return_url: `${origin}/confirmation?pedido=${order.ref}`,
      notify_url: `${origin}/payments/webhook/sandbox`,
    });
  });

  it("resumes the payment in flight instead of opening a second one", async () => {
    const [first, second] = await Promise.all([begin(), begin()]);
    const third = await begin();
    expect(first).toMatchObject({ kind: "redirect" });
    expect(second.payment.id).toBe(first.payment.id);
    expect(third.payment.id).toBe(first.payment.id);
    expect((await db.selectFrom("payments").selectAll().execute()).length).toBe(1);
    expect((await db.selectFrom("sandbox_checkouts").selectAll().execute()).length).toBe(1);
  });

  it("marks the order paid when the approval notification arrives, storing only brand and last four", async () => {
    await sandbox.pay(await checkoutIdOf(await begin()), TEST_CARDS.approved);
    expect(delivered).toHaveLength(1);
    expect(delivered[0].body).not.toContain(TEST_CARDS.approved);
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    const payment = await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref);
    expect(payment).toMatchObject({ status: "approved", card_brand: "visa", card_last4: "4242" });
    const stored = JSON.stringify(await db.selectFrom("payments").selectAll().execute());
    expect(stored).not.toContain(TEST_CARDS.approved);
  });

  it("processes a notification exactly once, however often it is delivered", async () => {
    await sandbox.pay(await checkoutIdOf(await begin()), TEST_CARDS.approved);
    const paidAt = (await findOrder(db, order.ref))?.paidAt;
    const { body, headers } = delivered[0];
    expect(await payments.handleNotification(body, headers)).toBe("duplicate");
    expect(await payments.handleNotification(body, headers)).toBe("duplicate");
    expect((await findOrder(db, order.ref))?.paidAt).toBe(paidAt);
  });

  it("refuses a notification whose signature does not hold", async () => {
    const result = await begin();
    const checkoutId = await checkoutIdOf(result);
    const forged = JSON.stringify({
      checkout_id: checkoutId,
      payment_id: result.payment.id,
      status: "approved",
      amount: 400,
      currency: "MXN",
      decline_reason: null,
      card_brand: "visa",
      card_last4: "4242",
    });
    const wrongKey = deriveNotificationKey("not-the-store-secret-but-long-enough-0123456789");
    const headers = new Headers({ [SIGNATURE_HEADER]: signNotification(wrongKey, forged) });
    expect(await payments.handleNotification(forged, headers)).toBe("invalid");
    expect(await payments.handleNotification(forged, new Headers())).toBe("invalid");
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");
  });

  it("refuses a correctly signed notification for another amount", async () => {
    const result = await begin();
    const body = JSON.stringify({
      checkout_id: await checkoutIdOf(result),
      payment_id: result.payment.id,
      status: "approved",
      amount: 1,
      currency: "MXN",
      decline_reason: null,
      card_brand: "visa",
      card_last4: "4242",
    });
    const headers = new Headers({ [SIGNATURE_HEADER]: signNotification(key, body) });
    expect(await payments.handleNotification(body, headers)).toBe("rejected");
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");
  });

  it("keeps the order after a decline and opens a new payment to try again", async () => {
    const first = await begin();
    await sandbox.pay(await checkoutIdOf(first), TEST_CARDS.insufficientFunds);
    expect(await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref)).toMatchObject({
      status: "declined",
      decline_reason: "insufficient_funds",
    });
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");

    const retry = await begin();
    expect(retry.payment.id).not.toBe(first.payment.id);
    await sandbox.pay(await checkoutIdOf(retry), TEST_CARDS.approved);
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    expect((await begin()).kind).toBe("already_paid");
  });

  it("charges a sandbox checkout only once", async () => {
    const checkoutId = await checkoutIdOf(await begin());
    await sandbox.pay(checkoutId, TEST_CARDS.declined);
    const again = await sandbox.pay(checkoutId, TEST_CARDS.approved);
    expect(again?.status).toBe("declined");
    expect(delivered).toHaveLength(1);
  });

  it("learns the outcome from the provider when the notification was lost", async () => {
    reachable = false;
    const result = await begin();
    await sandbox.pay(await checkoutIdOf(result), TEST_CARDS.approved);
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");
    const pending = await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref);
    const refreshed = await payments.refresh(pending!);
    expect(refreshed.status).toBe("approved");
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    expect(logger.warn).toHaveBeenCalled();
    for (const call of logger.warn.mock.calls) {
      expect(JSON.stringify(call)).not.toContain(TEST_CARDS.approved);
    }
  });

  it("refuses to open a payment for an unknown purpose", async () => {
    await expect(
      payments.begin({
        purpose: "unknown",
        reference: "x",
        amount: 1,
        description: "x",
        returnUrl: origin,
        origin,
      }),
    ).rejects.toThrow();
  });
});
