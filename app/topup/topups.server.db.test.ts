import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import {
  customerOwnsOrder,
  listCustomerOrders,
  placeOrder,
  type PlaceOrderInput,
} from "~/checkout/orders.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { payFor } from "~/payments/pay-for.server";
import { createPaymentService, type PaymentService } from "~/payments/payments.server";
import type { PaymentOutcome, PaymentProvider } from "~/payments/provider";
import { topupOffer } from "~/line/line";
import { receiptPath } from "./paths";
import {
  cancelTopup,
  createTopup,
  findCustomerTopup,
  listCustomerTopups,
  paidTopupsOfLine,
  savedLines,
  TOPUP_PAYMENT_PURPOSE,
  topupPayment,
  topupPaymentPurpose,
  type Topup,
} from "./topups.server";
import type { RequestContext } from "~/context";

const ANA = "sub-ana";
const BETO = "sub-beto";
const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

/** A provider that opens a page per payment and lets the test decide each outcome. */
const provider: PaymentProvider = {
  name: "fake",
  pageOrigins: ["https://pagos.test"],
  async createCheckout(input) {
    return {
      providerReference: `ref_${input.paymentId}`,
      redirectUrl: `https://pagos.test/${input.paymentId}`,
      instructions: null,
    };
  },
  parseNotification: async () => "invalid",
  retrieve: async () => null,
  close: async () => "closed",
  createCustomer: async () => "cus_fake",
  chargeSavedCard: async () => {
    throw new Error("no saved cards here");
  },
  detachCard: async () => undefined,
};

let db: Db;
let payments: PaymentService;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  payments = createPaymentService({ db, provider, logger });
  payments.registerPurpose(TOPUP_PAYMENT_PURPOSE, topupPaymentPurpose);
});
afterEach(async () => {
  await db.destroy();
});

function create(customerSub: string, key = crypto.randomUUID(), phoneNumber = "5512345678") {
  return createTopup(db, {
    customerSub,
    email: null,
    idempotencyKey: key,
    phoneNumber,
    amount: 100,
  });
}

async function created(customerSub: string, phoneNumber = "5512345678") {
  const result = await create(customerSub, crypto.randomUUID(), phoneNumber);
  if (result.kind === "conflict") throw new Error("unexpected conflict");
  return result.topup;
}

function beginPayment(topup: Topup) {
  return payments.begin({
    purpose: TOPUP_PAYMENT_PURPOSE,
    reference: topup.id,
    amount: topup.amount,
    method: "card",
    description: `Recarga ${topup.folio}`,
    returnUrl: `https://tienda.test/my-account/recarga/${topup.folio}`,
    origin: "https://tienda.test",
    customerEmail: null,
  });
}

function outcome(paymentId: string, status: "approved" | "declined", amount = 100): PaymentOutcome {
  return {
    paymentId,
    providerReference: `ref_${paymentId}`,
    status,
    amount,
    currency: "MXN",
    declineReason: status === "declined" ? "card_declined" : null,
    card: { brand: "visa", last4: "4242" },
    instructions: null,
  };
}

/** The line jobs queued, payloads read back. */
async function lineJobs() {
  const rows = await db
    .selectFrom("line_jobs")
    .select(["id", "kind", "state", "payload"])
    .execute();
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as unknown }));
}

describe("creating a top-up", () => {
  it("gives it a REC folio of the year and leaves it pending payment", async () => {
    const topup = await created(ANA);
    expect(topup.folio).toMatch(/^REC-\d{4}-000001$/);
    expect(topup.status).toBe("pending_payment");
    expect((await created(ANA)).folio).toMatch(/^REC-\d{4}-000002$/);
  });

  it("happens once per idempotency key, whatever a resubmission sends", async () => {
    const key = crypto.randomUUID();
    const first = await create(ANA, key);
    const again = await createTopup(db, {
      customerSub: ANA,
      email: null,
      idempotencyKey: key,
      phoneNumber: "5599998888",
      amount: 500,
    });
    expect(first.kind).toBe("created");
    expect(again.kind).toBe("existing");
    if (first.kind === "conflict" || again.kind === "conflict") throw new Error("conflict");
    expect(again.topup).toEqual(first.topup);
    expect(await listCustomerTopups(db, ANA)).toHaveLength(1);
  });

  it("survives simultaneous submissions of the same form", async () => {
    const key = crypto.randomUUID();
    const results = await Promise.all([create(ANA, key), create(ANA, key), create(ANA, key)]);
    const folios = new Set(results.map((result) => "topup" in result && result.topup.folio));
    expect(folios.size).toBe(1);
    expect(await listCustomerTopups(db, ANA)).toHaveLength(1);
  });

  it("never hands another customer's top-up to whoever replays its key", async () => {
    const key = crypto.randomUUID();
    await create(ANA, key);
    expect(await create(BETO, key)).toEqual({ kind: "conflict" });
    expect(await listCustomerTopups(db, BETO)).toEqual([]);
  });
});

describe("ownership", () => {
  it("finds a top-up by folio only for the customer who owns it", async () => {
    const topup = await created(ANA);
    expect(await findCustomerTopup(db, ANA, topup.folio)).toEqual(topup);
    expect(await findCustomerTopup(db, BETO, topup.folio)).toBeNull();
    expect(await findCustomerTopup(db, ANA, "REC-2026-999999")).toBeNull();
  });

  it("lists only the customer's own top-ups, newest first", async () => {
    const first = await created(ANA);
    await created(BETO);
    const second = await created(ANA);
    expect((await listCustomerTopups(db, ANA)).map((topup) => topup.folio)).toEqual([
      second.folio,
      first.folio,
    ]);
  });

  it("lists only the orders the customer placed while signed in", async () => {
    const catalogue = createCatalogue(db);
    await catalogue.seed(PLAN_CATALOGUE);
    const lines = priceCart([{ id: "conecta-150", quantity: 1 }], catalogue.find).lines;
    const customer: PlaceOrderInput["customer"] = {
      full_name: "Ana López",
      email: "ana@example.com",
      phone_number: "5512345678",
      sim_type: "physical",
      delivery: {
        street: "Calle 1",
        exterior_number: "10",
        interior_number: undefined,
        neighborhood: "Centro",
        postal_code: "06000",
        municipality: "Cuauhtémoc",
        state: "CMX",
      },
    };
    const mine = await placeOrder(db, {
      idempotencyKey: crypto.randomUUID(),
      customer,
      lines,
      customerSub: ANA,
    });
    const asGuest = await placeOrder(db, {
      idempotencyKey: crypto.randomUUID(),
      customer: { ...customer, email: "ANA@example.com" },
      lines,
    });
    await placeOrder(db, {
      idempotencyKey: crypto.randomUUID(),
      customer,
      lines,
      customerSub: BETO,
    });
    const ana = { sub: ANA, email: "ana@example.com", emailProven: false };
    expect((await listCustomerOrders(db, ana)).map((order) => order.folio)).toEqual([
      mine.order.folio,
    ]);
    expect(mine.order.customerSub).toBe(ANA);
    // Once her e-mail is proved hers, what she ordered as a guest with it is hers too.
    const verified = { ...ana, emailProven: true };
    expect((await listCustomerOrders(db, verified)).map((order) => order.folio).sort()).toEqual(
      [mine.order.folio, asGuest.order.folio].sort(),
    );
    expect(customerOwnsOrder(asGuest.order, verified)).toBe(true);
    expect(customerOwnsOrder(asGuest.order, ana)).toBe(false);
    expect(customerOwnsOrder(mine.order, { ...verified, sub: BETO })).toBe(false);
  });
});

describe("paying a top-up", () => {
  it("marks it paid exactly once, whatever the number of notifications", async () => {
    const topup = await created(ANA);
    const begun = await beginPayment(topup);
    expect(begun.kind).toBe("redirect");
    expect(await payments.settle(outcome(begun.payment.id, "approved"))).toBe("applied");
    expect(await payments.settle(outcome(begun.payment.id, "approved"))).toBe("duplicate");
    const paid = await findCustomerTopup(db, ANA, topup.folio);
    expect(paid?.status).toBe("paid");
    expect(paid?.paidAt).not.toBeNull();
    expect((await beginPayment(topup)).kind).toBe("already_paid");
  });

  it("after a decline, pays the same top-up on retry: one top-up, two payments", async () => {
    const topup = await created(ANA);
    const declined = await beginPayment(topup);
    await payments.settle(outcome(declined.payment.id, "declined"));
    expect((await findCustomerTopup(db, ANA, topup.folio))?.status).toBe("pending_payment");

    const retry = await beginPayment(topup);
    expect(retry.payment.id).not.toBe(declined.payment.id);
    await payments.settle(outcome(retry.payment.id, "approved"));

    expect(await listCustomerTopups(db, ANA)).toHaveLength(1);
    expect((await findCustomerTopup(db, ANA, topup.folio))?.status).toBe("paid");
    const attempts = await db
      .selectFrom("payments")
      .select("status")
      .where("reference", "=", topup.id)
      .orderBy("created_at")
      .execute();
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual(["approved", "declined"]);
  });

  it("opens no new payment for a cancelled top-up: its form sent again only shows the receipt", async () => {
    const context = {
      payments,
      config: { publicOrigin: "https://tienda.test" },
    } as unknown as RequestContext;
    const paymentsOf = (topup: Topup) =>
      db.selectFrom("payments").select("status").where("reference", "=", topup.id).execute();

    // Its voucher expired: cancelled, and no new voucher (nor card page) may make it payable.
    const cancelled = await created(ANA);
    expect(await cancelTopup(db, cancelled.id, "2026-11-24T12:00:00.000Z")).toBe(true);
    for (const method of ["cash", "card"] as const) {
      const again = await payFor(context, topupPayment({ ...cancelled, status: "cancelled" }), {
        method,
        savedCardId: null,
        saveCard: false,
      });
      expect(again.status).toBe(303);
      expect(again.headers.get("Location")).toBe(receiptPath(cancelled.id));
    }
    expect(await paymentsOf(cancelled)).toEqual([]);

    const pending = await created(ANA);
    const toPay = await payFor(context, topupPayment(pending), {
      method: "card",
      savedCardId: null,
      saveCard: false,
    });
    expect(toPay.headers.get("Location")).toMatch(/^https:\/\/pagos\.test\/pay_/);
    expect(await paymentsOf(pending)).toEqual([{ status: "pending" }]);
  });

  it("refuses an outcome whose amount does not match", async () => {
    const topup = await created(ANA);
    const begun = await beginPayment(topup);
    expect(await payments.settle(outcome(begun.payment.id, "approved", 20))).toBe("rejected");
    expect((await findCustomerTopup(db, ANA, topup.folio))?.status).toBe("pending_payment");
    expect(await lineJobs()).toEqual([]);
  });

  it("queues its application to the line with the payment's approval, once", async () => {
    const topup = await created(ANA);
    const begun = await beginPayment(topup);
    expect(await lineJobs()).toEqual([]);
    await payments.settle(outcome(begun.payment.id, "approved"));
    await payments.settle(outcome(begun.payment.id, "approved"));
    expect(await lineJobs()).toEqual([
      {
        id: `topup:${topup.id}`,
        kind: "apply-topup",
        state: "pending",
        payload: {
          topupId: topup.id,
          number: "5512345678",
          amount: 100,
          offerId: topupOffer(100)!.offerId,
        },
      },
    ]);
  });

  it("never queues a declined, unpaid or cancelled top-up", async () => {
    const declined = await created(ANA);
    await payments.settle(outcome((await beginPayment(declined)).payment.id, "declined"));
    await created(ANA);
    const cancelled = await created(ANA);
    const begun = await beginPayment(cancelled);
    await payments.settle({ ...outcome(begun.payment.id, "approved"), status: "expired" });
    await cancelTopup(db, cancelled.id, "2026-11-24T12:00:00.000Z");
    // Paid after all, too late: the payment is recorded, the cancelled top-up is not applied.
    await payments.settle(outcome(begun.payment.id, "approved"));
    expect((await findCustomerTopup(db, ANA, cancelled.folio))?.status).toBe("cancelled");
    expect(await lineJobs()).toEqual([]);
  });
});

describe("saved lines", () => {
  it("offer lines topped up successfully, most recent first, each once", async () => {
    for (const phone of ["5511112222", "5533334444", "5511112222", "5599990000"]) {
      const topup = await created(ANA, phone);
      if (phone === "5599990000") continue; // never paid: a typo must not become a choice
      const begun = await beginPayment(topup);
      await payments.settle(outcome(begun.payment.id, "approved"));
    }
    await created(BETO, "5577776666");
    expect(await savedLines(db, ANA)).toEqual(["5511112222", "5533334444"]);
    expect(await savedLines(db, BETO)).toEqual([]);
  });
});

describe("a line's top-ups", () => {
  it("lists the paid top-ups to the number, whoever paid them, the last paid first", async () => {
    const pay = async (topup: Topup) => {
      const begun = await beginPayment(topup);
      await payments.settle(outcome(begun.payment.id, "approved"));
    };
    const first = await created(ANA, "5511112222");
    await pay(first);
    const byBeto = await created(BETO, "5511112222");
    await pay(byBeto);
    await pay(await created(BETO, "5533334444"));
    await created(ANA, "5511112222"); // waiting for payment: not on the line's page

    const heldByAna = { accountSub: ANA, since: "2000-01-01T00:00:00.000Z" };
    const listed = await paidTopupsOfLine(db, "5511112222", heldByAna);
    expect(listed.map((topup) => topup.folio)).toEqual([byBeto.folio, first.folio]);
    expect(await paidTopupsOfLine(db, "5500000000", heldByAna)).toEqual([]);
  });

  it("for an account the line moved to, leave out what others paid before the move: that history stays with them", async () => {
    const pay = async (topup: Topup) => {
      const begun = await beginPayment(topup);
      await payments.settle(outcome(begun.payment.id, "approved"));
    };
    // Ana's line: her top-ups, and Beto's own one before it was his.
    const anas = await created(ANA, "5511112222");
    await pay(anas);
    const betosBefore = await created(BETO, "5511112222");
    await pay(betosBefore);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const movedAt = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The line moves to Beto; then Ana, still fond of it, tops it up once more.
    const anasAfter = await created(ANA, "5511112222");
    await pay(anasAfter);

    const listed = await paidTopupsOfLine(db, "5511112222", { accountSub: BETO, since: movedAt });
    expect(listed.map((topup) => topup.folio)).toEqual([anasAfter.folio, betosBefore.folio]);
    expect(listed.map((topup) => topup.folio)).not.toContain(anas.folio);
  });
});
