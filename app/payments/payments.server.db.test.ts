import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { findOrder, placeOrder, type Order } from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { createPaymentService, paymentInstructions, type PaymentService } from "./payments.server";
import { isValidClabe } from "./clabe";
import type { PaymentMethod } from "./provider";
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

let db: Db;
let catalogue: ReturnType<typeof createCatalogue>;
let sandbox: SandboxGateway;
let payments: PaymentService;
let order: Order;
/** The notifications the sandbox posted, as the store's endpoint received them. */
let delivered: Array<{ url: string; body: string; headers: Headers }>;
/** Whether the store's endpoint is reachable (a lost notification must not lose the payment). */
let reachable: boolean;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  catalogue = createCatalogue(db);
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
  payments = createPaymentService({ db, provider: sandbox, logger, voucherHours: 72 });
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

function begin(method: PaymentMethod = "card") {
  return payments.begin({
    purpose: ORDER_PAYMENT_PURPOSE,
    reference: order.ref,
    amount: order.total,
    method,
    description: `Pedido ${order.folio}`,
    returnUrl: `${origin}/confirmation?pedido=${order.ref}`,
    origin,
    customerEmail: "ana@example.com",
  });
}

/** A sandbox notification's body for a payment of the order: approved in full unless `fields` say otherwise. */
function notificationBody(
  payment: { id: string },
  checkoutId: string,
  fields: { event_id: string } & Record<string, unknown>,
) {
  return JSON.stringify({
    checkout_id: checkoutId,
    payment_id: payment.id,
    status: "approved",
    amount: order.total,
    currency: "MXN",
    decline_reason: null,
    card_brand: null,
    card_last4: null,
    ...fields,
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
    const forged = notificationBody(result.payment, checkoutId, {
      event_id: "evt_forged",
      amount: 400,
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
    const body = notificationBody(result.payment, await checkoutIdOf(result), {
      event_id: "evt_other_amount",
      amount: 1,
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
        method: "card",
        description: "x",
        returnUrl: origin,
        origin,
        customerEmail: null,
      }),
    ).rejects.toThrow();
  });
});

describe("paying later: cash at a store or a SPEI transfer", () => {
  const instructionsOf = async () =>
    paymentInstructions((await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref))!);

  it("issues a cash voucher at once: a reference never handed out before, 72 hours to pay", async () => {
    const before = Date.now();
    const result = await begin("cash");
    expect(result.kind).toBe("instructions");
    const voucher = await instructionsOf();
    expect(voucher).toMatchObject({ method: "cash", reference: expect.stringMatching(/^\d{14}$/) });
    const expires = Date.parse(voucher!.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(72 * 3600_000 - 1000);
    expect(expires - before).toBeLessThan(72 * 3600_000 + 60_000);
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");
    // The same form sent again gets the same voucher.
    expect((await begin("cash")).payment.id).toBe(result.payment.id);
    expect(await instructionsOf()).toEqual(voucher);
  });

  it("gives each SPEI transfer its own CLABE with a valid control digit and a reference", async () => {
    await begin("spei");
    const transfer = await instructionsOf();
    expect(transfer).toMatchObject({ method: "spei", reference: expect.stringMatching(/^\d{7}$/) });
    if (transfer?.method !== "spei") throw new Error("expected a transfer");
    expect(isValidClabe(transfer.clabe)).toBe(true);
  });

  it("never hands out the same voucher reference or CLABE twice", async () => {
    const issued = new Set<string>();
    for (let index = 0; index < 20; index++) {
      const other = await placeOrder(db, {
        idempotencyKey: crypto.randomUUID(),
        customer,
        lines: priceCart([{ id: "conecta-100", quantity: 1 }], catalogue.find).lines,
      });
      const result = await payments.begin({
        purpose: ORDER_PAYMENT_PURPOSE,
        reference: other.order.ref,
        amount: other.order.total,
        method: index % 2 ? "cash" : "spei",
        description: "x",
        returnUrl: origin,
        origin,
        customerEmail: null,
      });
      const instructions = paymentInstructions(result.payment)!;
      issued.add(instructions.method === "cash" ? instructions.reference : instructions.clabe);
    }
    expect(issued.size).toBe(20);
  });

  it("marks the order paid when the store reports the voucher paid; a second report changes nothing", async () => {
    const result = await begin("cash");
    const checkout = result.payment.provider_reference!;
    await sandbox.simulate(checkout, "paid");
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    const { body, headers } = delivered[0];
    expect(await payments.handleNotification(body, headers)).toBe("duplicate");
    expect(await sandbox.simulate(checkout, "expired")).toMatchObject({ status: "approved" });
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
  });

  it("queues the customer's e-mails with what they tell: order received, voucher issued, order paid, once each", async () => {
    const result = await begin("cash");
    await sandbox.simulate(result.payment.provider_reference!, "paid");
    const { body, headers } = delivered[0];
    await payments.handleNotification(body, headers);
    const queued = await db
      .selectFrom("mail_queue")
      .select(["template", "to_address", "dedupe_key"])
      .orderBy("created_at")
      .execute();
    expect(queued.map((mail) => mail.template).sort()).toEqual([
      "order_paid",
      "order_received",
      "payment_voucher",
    ]);
    expect(new Set(queued.map((mail) => mail.to_address))).toEqual(new Set(["ana@example.com"]));
  });

  it("cancels the order when the voucher expires; a payment reported afterwards changes nothing", async () => {
    const result = await begin("spei");
    const checkout = result.payment.provider_reference!;
    await sandbox.simulate(checkout, "expired");
    expect((await findOrder(db, order.ref))?.status).toBe("cancelled");
    expect(await payments.latest(ORDER_PAYMENT_PURPOSE, order.ref)).toMatchObject({
      status: "expired",
    });
    // A late (forged-order) approval for the expired payment, correctly signed, changes nothing.
    const late = notificationBody(result.payment, checkout, { event_id: "evt_late_approval" });
    const headers = new Headers({ [SIGNATURE_HEADER]: signNotification(key, late) });
    expect(await payments.handleNotification(late, headers)).toBe("duplicate");
    expect((await findOrder(db, order.ref))?.status).toBe("cancelled");
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ msg: "payment notification for a payment no longer pending" }),
    );
  });

  it("expires a voucher past its date when nobody reports it: the sweep asks the provider", async () => {
    const result = await begin("cash");
    await db
      .updateTable("sandbox_checkouts")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", result.payment.provider_reference!)
      .execute();
    await db
      .updateTable("payments")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", result.payment.id)
      .execute();
    expect(await payments.refreshOverdue()).toBe(1);
    expect((await findOrder(db, order.ref))?.status).toBe("cancelled");
    expect(await payments.refreshOverdue()).toBe(0);
  });

  it("lets the customer pay another way: the voucher is closed first, and the order stays", async () => {
    const voucher = await begin("cash");
    const card = await begin("card");
    expect(card.kind).toBe("redirect");
    expect(card.payment.id).not.toBe(voucher.payment.id);
    const replaced = await db
      .selectFrom("payments")
      .select("status")
      .where("id", "=", voucher.payment.id)
      .executeTakeFirstOrThrow();
    expect(replaced.status).toBe("replaced");
    // The closed voucher can no longer be paid at the store.
    expect(await sandbox.simulate(voucher.payment.provider_reference!, "paid")).toMatchObject({
      status: "expired",
    });
    expect((await findOrder(db, order.ref))?.status).toBe("pending_payment");
    await sandbox.pay(await checkoutIdOf(card), TEST_CARDS.approved);
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
  });

  it("applies a notification once by its id, whatever order the notifications arrive in", async () => {
    const result = await begin("cash");
    const checkout = result.payment.provider_reference!;
    const notice = (status: string, eventId: string) => {
      const body = notificationBody(result.payment, checkout, { event_id: eventId, status });
      return payments.handleNotification(
        body,
        new Headers({ [SIGNATURE_HEADER]: signNotification(key, body) }),
      );
    };
    expect(await notice("approved", "evt_1")).toBe("applied");
    expect(await notice("approved", "evt_1")).toBe("duplicate");
    expect(await notice("expired", "evt_2")).toBe("duplicate");
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    const approved = await db
      .selectFrom("payments")
      .selectAll()
      .where("status", "=", "approved")
      .execute();
    expect(approved).toHaveLength(1);
  });

  it("applies an approval once when its notifications arrive at the same moment", async () => {
    const result = await begin("cash");
    const body = (eventId: string) =>
      notificationBody(result.payment, result.payment.provider_reference!, { event_id: eventId });
    const notice = (eventId: string) =>
      payments.handleNotification(
        body(eventId),
        new Headers({ [SIGNATURE_HEADER]: signNotification(key, body(eventId)) }),
      );
    // The same notification retried, and other notifications of the same approval, all at once:
    // on PostgreSQL these are concurrent transactions on separate connections.
    const outcomes = await Promise.all([
      ...Array.from({ length: 4 }, () => notice("evt_same")),
      ...Array.from({ length: 4 }, (_, index) => notice(`evt_${index}`)),
    ]);
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== "applied")).toEqual(
      Array.from({ length: 7 }, () => "duplicate"),
    );
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    const paidMail = await db
      .selectFrom("mail_queue")
      .select("dedupe_key")
      .where("dedupe_key", "like", "order-paid:%")
      .execute();
    expect(paidMail).toHaveLength(1);
  });
});
