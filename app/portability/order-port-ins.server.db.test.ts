import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue, type Catalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import type { PortInChoice } from "~/checkout/checkout-schema";
import { ORDER_PAYMENT_PURPOSE, orderPaymentPurpose } from "~/checkout/order-payments.server";
import { findOrder, placeOrder, type Order } from "~/checkout/orders.server";
import { shipOrder } from "~/checkout/shipping.server";
import type { Db } from "~/db/db.server";
import { ensureEsimActivations, markEsimInstalled } from "~/esim/activations.server";
import { createSandboxProvisioner } from "~/esim/sandbox-provisioner.server";
import { todayInMexico } from "~/lib/mexico-city-days";
import { listPortabilityRequests } from "~/ops/queries.server";
import { createPaymentService, type PaymentService } from "~/payments/payments.server";
import { TEST_CARDS } from "~/payments/sandbox/card-rules";
import { createSandboxGateway, type SandboxGateway } from "~/payments/sandbox/sandbox.server";
import {
  deriveNotificationKey,
  SIGNATURE_HEADER,
  signNotification,
} from "~/payments/sandbox/signature.server";
import { curpCheckDigit } from "~/registration/curp";
import { createRegistrationKeys } from "~/registration/registrations.server";
import { testIccid } from "../../tests/support/iccids";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { orderPortIns, portInForSim } from "./order-port-ins.server";
import { completePortability, rejectPortability, schedulePortability } from "./progress.server";
import {
  createNipBox,
  createPortabilityRequests,
  recordRequest,
  type PortabilityRequests,
} from "./requests.server";

// Issue 34, decision 0106: the numbers a checkout keeps wait, sealed, with the order, and each is
// filed as a portability request exactly once, when the order is paid — never for an order that
// expires unpaid — and the SIM bought for it waits for the port.

const SECRET = "unit-test-secret-that-is-long-enough-0123456789";
const nipBox = createNipBox([SECRET]);
const keys = createRegistrationKeys([SECRET]);
const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
const notificationKey = deriveNotificationKey(SECRET);
const origin = "http://tienda.test";
const ACTOR = "prueba";

const CURP = (() => {
  const first17 = "GOMA850312MDFRRN0";
  return first17 + curpCheckDigit(first17);
})();
const holder = {
  holder_kind: "fisica" as const,
  full_name: "Ana Gómez Martínez",
  curp: CURP,
  identification_type: "ine" as const,
};

let db: Db;
let catalogue: Catalogue;
let sandbox: SandboxGateway;
let payments: PaymentService;
let portability: PortabilityRequests;
let delivered: Array<{ body: string; headers: Headers }>;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
  delivered = [];
  const fakeFetch = (async (_url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    delivered.push({ body: String(init.body), headers });
    const result = await payments.handleNotification(String(init.body), headers);
    return new Response(null, { status: result === "invalid" ? 401 : 200 });
  }) as unknown as typeof fetch;
  sandbox = createSandboxGateway({
    db,
    notificationKeys: [notificationKey],
    logger,
    fetch: fakeFetch,
  });
  payments = createPaymentService({ db, provider: sandbox, logger, voucherHours: 72 });
  payments.registerPurpose(ORDER_PAYMENT_PURPOSE, orderPaymentPurpose);
  portability = createPortabilityRequests({ db, nipBox });
});
afterEach(async () => {
  await db.destroy();
});

/** A 10-digit number of its own for each test. */
let serial = 0;
function number(): string {
  serial += 1;
  return `55${String(40_000_000 + serial).padStart(8, "0")}`;
}

function keep(position: number, phone = number(), nip = "4821"): PortInChoice {
  return { position, phone_number: phone, current_carrier: "telcel", nip };
}

async function orderKeeping(
  portIns: PortInChoice[],
  {
    simType = "esim",
    quantity = 2,
    customerSub = null,
  }: { simType?: "esim" | "physical"; quantity?: number; customerSub?: string | null } = {},
): Promise<Order> {
  const { order } = await placeOrder(db, {
    idempotencyKey: crypto.randomUUID(),
    customer: {
      full_name: "Ana López",
      email: "ana@example.com",
      phone_number: "5512345678",
      sim_type: simType,
      delivery:
        simType === "esim"
          ? null
          : {
              street: "Calle 1",
              exterior_number: "10",
              interior_number: undefined,
              neighborhood: "Centro",
              postal_code: "06000",
              municipality: "Cuauhtémoc",
              state: "CMX",
            },
    },
    holder: { holder, keys },
    portIns: { choices: portIns, nipBox },
    lines: priceCart([{ id: "conecta-500", quantity }], catalogue.find).lines,
    customerSub,
  });
  return order;
}

function begin(order: Order, method: "card" | "cash" | "spei") {
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

async function payByCard(order: Order) {
  const result = await begin(order, "card");
  if (result.kind !== "redirect") throw new Error("expected a card page");
  await sandbox.pay(result.url.split("/").pop()!, TEST_CARDS.approved);
}

const requestsOf = (phoneNumbers: string[]) =>
  db
    .selectFrom("portability_requests")
    .selectAll()
    .where("phone_number", "in", phoneNumbers)
    .orderBy("folio")
    .execute();

const receivedMail = () =>
  db
    .selectFrom("mail_queue")
    .select(["to_address", "data"])
    .where("template", "=", "portability_received")
    .execute();

describe("numbers kept at checkout", () => {
  it("wait with the order, the NIP sealed to its row, and nothing is filed before the payment", async () => {
    const kept = [keep(0, number(), "4821"), keep(1, number(), "7306")];
    const order = await orderKeeping(kept);
    const rows = await db.selectFrom("order_port_ins").selectAll().orderBy("position").execute();
    expect(rows.map((row) => [row.position, row.phone_number, row.state])).toEqual([
      [0, kept[0]!.phone_number, "waiting"],
      [1, kept[1]!.phone_number, "waiting"],
    ]);
    for (const [index, row] of rows.entries()) {
      expect(row.nip_sealed).not.toContain(kept[index]!.nip);
      expect(nipBox.open(row.nip_sealed!, row.id)).toBe(kept[index]!.nip);
      // Bound to its row: copied to another, it opens nothing.
      expect(nipBox.open(row.nip_sealed!, rows[1 - index]!.id)).toBeNull();
    }
    expect(await requestsOf(kept.map((each) => each.phone_number))).toEqual([]);
    expect((await orderPortIns(db, order.ref)).map((each) => each.state)).toEqual([
      "waiting",
      "waiting",
    ]);
  });

  it("are filed once the card payment is approved: a folio each, the holder's name and CURP, the order's e-mail and account, the received e-mail", async () => {
    const kept = [keep(0), keep(1, number(), "7306")];
    const order = await orderKeeping(kept, { customerSub: "sub-ana" });
    await payByCard(order);
    expect((await findOrder(db, order.ref))?.status).toBe("paid");

    const requests = await requestsOf(kept.map((each) => each.phone_number));
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request).toMatchObject({
        status: "received",
        full_name: holder.full_name,
        curp: CURP,
        email: "ana@example.com",
        current_carrier: "telcel",
        customer_sub: "sub-ana",
        iccid: null,
      });
      expect(request.folio).toMatch(/^POR-\d{4}-\d{6}$/);
      // The porting process opens the NIP the checkout sealed, under the request's id.
      const typed = kept.find((each) => each.phone_number === request.phone_number)!.nip;
      expect(await portability.revealNip(request.id)).toBe(typed);
    }
    const views = await orderPortIns(db, order.ref);
    expect(views.map((view) => [view.state, view.request?.folio])).toEqual(
      [0, 1].map((position) => [
        "filed",
        requests.find((request) => request.phone_number === kept[position]!.phone_number)!.folio,
      ]),
    );
    // The order keeps no NIP, name or CURP of its own any more.
    const rows = await db.selectFrom("order_port_ins").selectAll().execute();
    expect(rows.map((row) => [row.nip_sealed, row.full_name, row.curp])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    const mail = await receivedMail();
    expect(mail).toHaveLength(2);
    expect(mail.map((each) => each.to_address)).toEqual(["ana@example.com", "ana@example.com"]);
  });

  it("are filed only when a cash voucher's payment is reported, and a second report files nothing", async () => {
    const kept = [keep(0)];
    const order = await orderKeeping(kept, { quantity: 1 });
    const voucher = await begin(order, "cash");
    expect(await requestsOf([kept[0]!.phone_number])).toEqual([]);
    await sandbox.simulate(voucher.payment.provider_reference!, "paid");
    expect(await requestsOf([kept[0]!.phone_number])).toHaveLength(1);
    const { body, headers } = delivered[0]!;
    expect(await payments.handleNotification(body, headers)).toBe("duplicate");
    expect(await requestsOf([kept[0]!.phone_number])).toHaveLength(1);
    expect(await receivedMail()).toHaveLength(1);
  });

  it("are never filed for an order whose transfer expires unpaid, and their NIPs are forgotten", async () => {
    const kept = [keep(0), keep(1)];
    const order = await orderKeeping(kept);
    const transfer = await begin(order, "spei");
    await sandbox.simulate(transfer.payment.provider_reference!, "expired");
    expect((await findOrder(db, order.ref))?.status).toBe("cancelled");
    expect(await requestsOf(kept.map((each) => each.phone_number))).toEqual([]);
    expect(await db.selectFrom("order_port_ins").selectAll().execute()).toEqual([]);
    expect(await receivedMail()).toEqual([]);
  });

  it("are filed once when the payment's notifications arrive at the same moment", async () => {
    const kept = [keep(0), keep(1)];
    const order = await orderKeeping(kept);
    const voucher = await begin(order, "cash");
    const notice = (eventId: string) => {
      const body = JSON.stringify({
        checkout_id: voucher.payment.provider_reference,
        payment_id: voucher.payment.id,
        status: "approved",
        amount: order.total,
        currency: "MXN",
        decline_reason: null,
        card_brand: null,
        card_last4: null,
        event_id: eventId,
      });
      return payments.handleNotification(
        body,
        new Headers({ [SIGNATURE_HEADER]: signNotification(notificationKey, body) }),
      );
    };
    // On PostgreSQL these are concurrent transactions on separate connections.
    const outcomes = await Promise.all([
      ...Array.from({ length: 3 }, () => notice("evt_same")),
      ...Array.from({ length: 5 }, (_, index) => notice(`evt_${index}`)),
    ]);
    expect(outcomes.filter((outcome) => outcome === "applied")).toHaveLength(1);
    expect(await requestsOf(kept.map((each) => each.phone_number))).toHaveLength(2);
    expect(await receivedMail()).toHaveLength(2);
    expect((await orderPortIns(db, order.ref)).map((each) => each.state)).toEqual([
      "filed",
      "filed",
    ]);
  });

  it("leave a number that has a request in process alone when the order is paid: the order is paid, the others filed", async () => {
    const busy = number();
    const elsewhere = await portability.submit({
      phone_number: busy,
      nip: "1111",
      full_name: "Otra Persona",
      email: "otra@example.com",
      curp: CURP,
      current_carrier: "att",
      iccid: undefined,
      accept_terms: "on",
      idempotency_key: "Zm9ybS1rZXktb2YtYW5vdGhlcg.c2lnbmF0dXJl",
    });
    const free = keep(1);
    const order = await orderKeeping([keep(0, busy), free]);
    await payByCard(order);
    expect((await findOrder(db, order.ref))?.status).toBe("paid");
    const [refused, filed] = await orderPortIns(db, order.ref);
    expect(refused).toMatchObject({ position: 0, state: "refused", reason: "open-request" });
    expect(refused!.request).toBeNull();
    expect(filed).toMatchObject({ position: 1, state: "filed" });
    // The request in process is untouched, and the refused number keeps no NIP.
    expect(await requestsOf([busy])).toEqual([
      expect.objectContaining({
        id: elsewhere.kind === "accepted" ? elsewhere.request.id : "",
        email: "otra@example.com",
      }),
    ]);
    const row = await db
      .selectFrom("order_port_ins")
      .selectAll()
      .where("position", "=", 0)
      .executeTakeFirstOrThrow();
    expect(row.nip_sealed).toBeNull();
    // Its SIM is free: it is activated with a new number as usual.
    expect(await portInForSim(db, order.ref, 0)).toBeNull();
    expect(await portInForSim(db, order.ref, 1)).not.toBeNull();
  });
});

describe("a request for the number written by someone else at the same moment", () => {
  it("is not filed a second time, and the payment's transaction goes on (PostgreSQL too)", async () => {
    const phone = number();
    const base = {
      folio: "POR-2026-900001",
      idempotency_key: "first",
      phone_number: phone,
      nip_sealed: "x",
      full_name: "Otra Persona",
      email: "otra@example.com",
      curp: CURP,
      current_carrier: "att",
      iccid: null,
      status: "received" as const,
      terms_accepted_at: "2026-01-01T00:00:00.000Z",
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      scheduled_for: null,
      rejection_reason: null,
      customer_sub: null,
    };
    await db.transaction().execute((trx) => recordRequest(trx, { ...base, id: "first-id" }));
    const written = await db.transaction().execute(async (trx) => {
      const second = await recordRequest(
        trx,
        { ...base, id: "second-id", folio: "POR-2026-900002", idempotency_key: "second" },
        { ifFree: true },
      );
      // A statement after the refused insert: on PostgreSQL an error would have ended the
      // transaction here.
      await trx.selectFrom("orders").select("id").execute();
      return second;
    });
    expect(written).toBe(false);
    expect((await requestsOf([phone])).map((request) => request.id)).toEqual(["first-id"]);
    expect(await receivedMail()).toHaveLength(1);
  });
});

describe("the SIM bought to receive a number", () => {
  const provisioner = createSandboxProvisioner({ secret: "s".repeat(40) });
  const jobs = () => db.selectFrom("line_jobs").select(["id", "payload"]).orderBy("id").execute();

  async function paidEsimKeeping(kept: PortInChoice) {
    const order = await orderKeeping([kept], { quantity: 1, customerSub: "sub-ana" });
    await payByCard(order);
    const paid = (await findOrder(db, order.ref))!;
    const issued = await ensureEsimActivations(db, provisioner, logger, paid);
    if (issued.status !== "ready") throw new Error("expected an eSIM");
    const [request] = await requestsOf([kept.phone_number]);
    return { order: paid, iccid: issued.activations[0]!.iccid, request: request! };
  }

  it("an eSIM installed while the port is in process gets no line of its own; the completed port puts the number on it", async () => {
    const kept = keep(0);
    const { order, iccid, request } = await paidEsimKeeping(kept);
    expect(await markEsimInstalled(db, order, 0)).toBe(true);
    expect(await jobs()).toEqual([]);

    // The operator's list shows the order and the eSIM's ICCID: nobody copies it anywhere.
    const [listed] = await listPortabilityRequests(db);
    expect(listed).toMatchObject({ folio: request.folio, iccid, orderFolio: order.folio });

    const today = todayInMexico();
    expect(
      await schedulePortability(db, request.folio, { date: today, actor: ACTOR }),
    ).toMatchObject({ ok: true });
    expect(await completePortability(db, request.folio, { actor: ACTOR })).toMatchObject({
      ok: true,
      portIn: { kind: "queued", iccid, accountSub: "sub-ana" },
    });
    const [job] = await jobs();
    expect(job!.id).toBe(`activation:portability:${request.id}`);
    expect(JSON.parse(job!.payload)).toMatchObject({
      iccid,
      number: kept.phone_number,
      offerId: "conecta-500",
    });
    const stored = await db
      .selectFrom("portability_requests")
      .select("iccid")
      .where("id", "=", request.id)
      .executeTakeFirstOrThrow();
    expect(stored.iccid).toBe(iccid);
  });

  it("an eSIM installed while the port waited gets its own line when the port is rejected", async () => {
    const { order, iccid, request } = await paidEsimKeeping(keep(0));
    await markEsimInstalled(db, order, 0);
    expect(await jobs()).toEqual([]);
    expect(
      await rejectPortability(db, request.folio, {
        reason: "El NIP no corresponde a la línea.",
        actor: ACTOR,
      }),
    ).toMatchObject({ ok: true });
    const [job] = await jobs();
    expect(job!.id).toBe(`activation:esim:${order.ref}:0`);
    expect(JSON.parse(job!.payload)).toMatchObject({ iccid, accountSub: "sub-ana" });
    expect(JSON.parse(job!.payload)).not.toHaveProperty("number");
    expect(await portInForSim(db, order.ref, 0)).toBeNull();
  });

  it("a physical SIM's ICCID is the one the operator shipped at its position", async () => {
    const kept = keep(1);
    const order = await orderKeeping([kept], { simType: "physical", quantity: 2 });
    await payByCard(order);
    const [request] = await requestsOf([kept.phone_number]);
    expect(
      await shipOrder(db, order.folio, {
        trackingNumber: "GUIA-1",
        iccids: [testIccid(701), testIccid(702)],
        actor: ACTOR,
      }),
    ).toMatchObject({ ok: true });
    await schedulePortability(db, request!.folio, { date: todayInMexico(), actor: ACTOR });
    expect(await completePortability(db, request!.folio, { actor: ACTOR })).toMatchObject({
      portIn: { kind: "queued", iccid: testIccid(702) },
    });
  });
});
