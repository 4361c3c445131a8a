import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "~/db/db.server";
import {
  createTopup,
  findTopup,
  TOPUP_PAYMENT_PURPOSE,
  topupPayment,
  topupPaymentPurpose,
  type Topup,
} from "~/topup/topups.server";
import { collectingLogger } from "../../tests/support/mail-fixtures";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { payFor } from "./pay-for.server";
import { createPaymentService, type PaymentService } from "./payments.server";
import { TEST_CARDS } from "./sandbox/card-rules";
import { createSandboxGateway, type SandboxGateway } from "./sandbox/sandbox.server";
import { deriveNotificationKey } from "./sandbox/signature.server";
import {
  ensurePaymentCustomer,
  findSavedCard,
  listSavedCards,
  removeSavedCard,
} from "./saved-cards.server";
import type { RequestContext } from "~/context";

// Saved cards on the sandbox (decision 0119): saved only when asked and paid, listed once per
// card, never with its number; paid with in one form; a card that needs 3-D Secure sent to the
// page; removed.

const key = deriveNotificationKey("saved-cards-test-secret-that-is-long-enough-01");
const ANA = { sub: "sub-ana", email: "ana@example.mx" };

let db: Db;
let sandbox: SandboxGateway;
let payments: PaymentService;
let serial = 0;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  const fakeFetch = (async (_url: string, init: RequestInit) => {
    const result = await payments.handleNotification(String(init.body), new Headers(init.headers));
    return new Response(null, { status: result === "invalid" ? 401 : 200 });
  }) as unknown as typeof fetch;
  const { logger } = collectingLogger();
  sandbox = createSandboxGateway({ db, notificationKeys: [key], logger, fetch: fakeFetch });
  payments = createPaymentService({ db, provider: sandbox, logger });
  payments.registerPurpose(TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose);
});
afterEach(async () => {
  await db.destroy();
});

async function newTopup(): Promise<Topup> {
  const created = await createTopup(db, {
    customerSub: ANA.sub,
    email: ANA.email,
    idempotencyKey: `saved-cards-${(serial += 1)}`,
    phoneNumber: "5512345678",
    amount: 100,
  });
  if (created.kind === "conflict") throw new Error("conflict");
  return created.topup;
}

/** What `payFor` needs of a request's context: Ana signed in, a flash and a cookie jar. */
function context(signedIn = true) {
  const flash = vi.fn();
  const value = {
    db,
    payments,
    config: { publicOrigin: "https://tienda.test" },
    session: signedIn ? { customer: ANA } : null,
    jar: { set: flash, get: () => null },
    cookies: { flash: "flash", sandboxPayer: "sandboxPayer" },
  } as unknown as RequestContext;
  return { context: value, flash };
}

/** Ana pays a top-up on the sandbox's page with `digits`, the box ticked or not. */
async function payAtPage(digits: string, saveCard: boolean) {
  const topup = await newTopup();
  const answer = await payFor(context().context, topupPayment(topup), {
    method: "card",
    savedCardId: null,
    saveCard,
  });
  const page = answer.headers.get("Location")!;
  expect(page).toMatch(/^\/sandbox\/pago\/chk_/);
  const checkout = await sandbox.findCheckout(page.split("/").pop()!);
  expect(checkout!.save_for_customer !== null).toBe(saveCard);
  await sandbox.pay(checkout!.id, digits, { month: 8, year: 2031 });
  return topup;
}

describe("saving a card at the sandbox's page", () => {
  it("keeps brand, last four and expiry once the payment is approved, and only when asked", async () => {
    await payAtPage(TEST_CARDS.approved, false);
    expect(await listSavedCards(db, ANA.sub, "sandbox")).toEqual([]);

    await payAtPage(TEST_CARDS.declined, true);
    expect(await listSavedCards(db, ANA.sub, "sandbox")).toEqual([]);

    await payAtPage(TEST_CARDS.approved, true);
    const [card] = await listSavedCards(db, ANA.sub, "sandbox");
    expect(card).toMatchObject({ brand: "visa", last4: "4242", expMonth: 8, expYear: 2031 });
    // The same card saved again is listed once.
    await payAtPage(TEST_CARDS.approved, true);
    expect(await listSavedCards(db, ANA.sub, "sandbox")).toHaveLength(1);
    // Nowhere the number: not in the store's tables, nor in the sandbox's vault.
    for (const table of ["saved_cards", "sandbox_payment_methods", "sandbox_checkouts"] as const) {
      const rows = await db.selectFrom(table).selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(TEST_CARDS.approved);
    }
  });

  it("one customer at the provider per account, whoever asks first", async () => {
    const [first, second] = await Promise.all([
      ensurePaymentCustomer(db, sandbox, ANA),
      ensurePaymentCustomer(db, sandbox, ANA),
    ]);
    expect(second).toBe(first);
    expect(await db.selectFrom("payment_customers").selectAll().execute()).toHaveLength(1);
  });
});

describe("paying with a saved card in one form", () => {
  it("charges it at once: the top-up is paid without the provider's page", async () => {
    await payAtPage(TEST_CARDS.approved, true);
    const [card] = await listSavedCards(db, ANA.sub, "sandbox");
    const topup = await newTopup();
    const answer = await payFor(context().context, topupPayment(topup), {
      method: "card",
      savedCardId: card!.id,
      saveCard: false,
    });
    expect(answer.headers.get("Location")).toBe(`/recarga/${topup.id}`);
    expect(await findTopup(db, topup.id)).toMatchObject({ status: "paid" });
    const payment = await payments.latest(TOPUP_PAYMENT_PURPOSE, topup.id);
    expect(payment).toMatchObject({
      status: "approved",
      saved_card_id: card!.id,
      card_brand: "visa",
      card_last4: "4242",
    });
  });

  it("a card the bank wants authenticated: nothing charged, the customer sent to the page", async () => {
    await payAtPage(TEST_CARDS.authenticationRequired, true);
    const [card] = await listSavedCards(db, ANA.sub, "sandbox");
    const topup = await newTopup();
    const { context: asked, flash } = context();
    const answer = await payFor(asked, topupPayment(topup), {
      method: "card",
      savedCardId: card!.id,
      saveCard: false,
    });
    expect(answer.headers.get("Location")).toMatch(/^\/sandbox\/pago\/chk_/);
    expect(flash).toHaveBeenCalledWith("flash", {
      kind: "info",
      key: "commerce:payment.authenticationFallback",
    });
    expect(await findTopup(db, topup.id)).toMatchObject({ status: "pending_payment" });
    const statuses = await db
      .selectFrom("payments")
      .select(["status", "decline_reason"])
      .where("reference", "=", topup.id)
      .orderBy("created_at")
      .execute();
    expect(statuses).toEqual([
      { status: "declined", decline_reason: "authentication_required" },
      { status: "pending", decline_reason: null },
    ]);
  });

  it("another account's card, a removed one, or none signed in: nothing charged, and said so", async () => {
    await payAtPage(TEST_CARDS.approved, true);
    const [card] = await listSavedCards(db, ANA.sub, "sandbox");
    expect(
      await findSavedCard(db, { accountSub: "sub-beto", id: card!.id, provider: "sandbox" }),
    ).toBeNull();
    const topup = await newTopup();
    const signedOut = context(false);
    const answer = await payFor(signedOut.context, topupPayment(topup), {
      method: "card",
      savedCardId: card!.id,
      saveCard: false,
    });
    expect(answer.headers.get("Location")).toBe(`/recarga/${topup.id}`);
    expect(signedOut.flash).toHaveBeenCalledWith("flash", {
      kind: "error",
      key: "commerce:payment.savedCardGone",
    });
    expect(await payments.latest(TOPUP_PAYMENT_PURPOSE, topup.id)).toBeNull();

    expect(
      await removeSavedCard(db, sandbox, { accountSub: ANA.sub, id: card!.id }),
    ).not.toBeNull();
    expect(await listSavedCards(db, ANA.sub, "sandbox")).toEqual([]);
    const method = await db
      .selectFrom("sandbox_payment_methods")
      .select("detached_at")
      .where("id", "=", card!.methodRef)
      .executeTakeFirstOrThrow();
    expect(method.detached_at).not.toBeNull();
    // Charged anyway through the provider (a stale reference): the sandbox refuses it too.
    const refused = await sandbox.chargeSavedCard({
      paymentId: "pay_stale",
      amount: 100,
      currency: "MXN",
      description: "Recarga",
      customerRef: card!.customerRef,
      methodRef: card!.methodRef,
      offSession: true,
      idempotencyKey: "stale-1",
    });
    expect(refused).toMatchObject({ status: "declined", declineReason: "payment_failed" });
  });
});
