import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChangeResult } from "~/audit/status-changes.server";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import {
  makeOrder,
  queuedMail,
  seedCatalogue,
  statusChanges,
} from "../../tests/support/store-fixtures";
import { misprintedIccid, testIccid } from "../../tests/support/iccids";
import { findShippedSim } from "./shipped-sims.server";
import { recordShippedIccids, shipOrder } from "./shipping.server";

let db: Db;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await seedCatalogue(db);
});
afterEach(async () => {
  await db.destroy();
});

const ACTOR = "ops:ana";

function refusal(result: ChangeResult) {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

function applied(result: ChangeResult) {
  if (!result.ok) throw new Error(`expected a change, got: ${result.message}`);
  return result;
}

describe("shipping an order", () => {
  it("records the tracking number, the audit row and the customer's e-mail together", async () => {
    const order = await makeOrder(db);
    const result = applied(
      await shipOrder(db, order.folio, {
        carrier: "Estafeta",
        trackingNumber: " 1234 5678 ",
        reason: "Salió con la ruta de la tarde",
        actor: ACTOR,
      }),
    );
    expect(result).toMatchObject({
      subject: "order",
      id: order.ref,
      folio: order.folio,
      fromStatus: "paid",
      toStatus: "shipped",
      detail: { carrier: "Estafeta", trackingNumber: "1234 5678" },
      email: "ana@example.com",
      mailQueued: true,
    });
    const row = await db
      .selectFrom("orders")
      .selectAll()
      .where("id", "=", order.ref)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "paid",
      shipped_at: result.changedAt,
      carrier: "Estafeta",
      tracking_number: "1234 5678",
      updated_at: result.changedAt,
    });
    const [change] = await statusChanges(db);
    expect(change).toMatchObject({
      subject: "order",
      subject_id: order.ref,
      from_status: "paid",
      to_status: "shipped",
      reason: "Salió con la ruta de la tarde",
      actor: ACTOR,
      created_at: result.changedAt,
    });
    expect(JSON.parse(change.detail ?? "null")).toEqual({
      carrier: "Estafeta",
      trackingNumber: "1234 5678",
    });
    expect(await queuedMail(db)).toEqual([
      {
        dedupeKey: `order-shipped:${order.ref}`,
        to: "ana@example.com",
        template: "order_shipped",
        data: { orderRef: order.ref },
      },
    ]);
  });

  it("accepts a folio typed in lower case and no carrier", async () => {
    const order = await makeOrder(db);
    const result = applied(
      await shipOrder(db, ` ${order.folio.toLowerCase()} `, {
        trackingNumber: "99",
        actor: ACTOR,
      }),
    );
    expect(result.detail).toEqual({ trackingNumber: "99" });
    expect(result.reason).toBeNull();
  });

  it("refuses to ship twice: nothing changes and no second e-mail is queued", async () => {
    const order = await makeOrder(db);
    applied(await shipOrder(db, order.folio, { trackingNumber: "111", actor: ACTOR }));
    const again = refusal(
      await shipOrder(db, order.folio, { trackingNumber: "222", carrier: "DHL", actor: ACTOR }),
    );
    expect(again.code).toBe("already_shipped");
    expect(again.message).toContain("guía 111");
    const row = await db
      .selectFrom("orders")
      .select(["tracking_number", "carrier"])
      .where("id", "=", order.ref)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ tracking_number: "111", carrier: null });
    expect(await statusChanges(db)).toHaveLength(1);
    expect(await queuedMail(db)).toHaveLength(1);
  });

  it.each([
    ["an unknown folio", "not_found", async () => "PED-2026-999999"],
    ["an order not paid", "not_paid", async () => (await makeOrder(db, { paid: false })).folio],
    [
      "a cancelled order",
      "not_paid",
      async () => {
        const order = await makeOrder(db, { paid: false });
        await db
          .updateTable("orders")
          .set({ status: "cancelled" })
          .where("id", "=", order.ref)
          .execute();
        return order.folio;
      },
    ],
    ["an eSIM order", "not_physical", async () => (await makeOrder(db, { simType: "esim" })).folio],
  ])("refuses %s", async (_name, code, folio) => {
    const result = refusal(
      await shipOrder(db, await folio(), { trackingNumber: "1", actor: ACTOR }),
    );
    expect(result.code).toBe(code);
    expect(result.message).toMatch(/^(No existe|El pedido)/);
    expect(await statusChanges(db)).toEqual([]);
    expect(await queuedMail(db)).toEqual([]);
  });

  it("refuses without a tracking number", async () => {
    const order = await makeOrder(db);
    const result = refusal(
      await shipOrder(db, order.folio, { trackingNumber: "  ", actor: ACTOR }),
    );
    expect(result).toMatchObject({ code: "invalid_input", message: "Falta el número de guía." });
  });
});

describe("the ICCIDs of the SIMs shipped", () => {
  async function shippedSims() {
    return db
      .selectFrom("shipped_sims")
      .select(["order_id", "position", "iccid"])
      .orderBy("order_id")
      .orderBy("position")
      .execute();
  }

  it("records one per SIM with the shipment, in the order of the order's lines, audited", async () => {
    const order = await makeOrder(db, {
      items: [
        { id: "conecta-150", quantity: 1 },
        { id: "conecta-300", quantity: 1 },
      ],
    });
    const printed = `${testIccid(1).slice(0, 4)} ${testIccid(1).slice(4)}`;
    const result = applied(
      await shipOrder(db, order.folio, {
        trackingNumber: "1",
        iccids: [printed, testIccid(2)],
        actor: ACTOR,
      }),
    );
    expect(result.detail).toEqual({
      trackingNumber: "1",
      iccids: `${testIccid(1)},${testIccid(2)}`,
    });
    expect(await shippedSims()).toEqual([
      { order_id: order.ref, position: 0, iccid: testIccid(1) },
      { order_id: order.ref, position: 1, iccid: testIccid(2) },
    ]);
    expect(await findShippedSim(db, testIccid(2))).toMatchObject({
      orderRef: order.ref,
      folio: order.folio,
      position: 1,
      planId: "conecta-300",
      order: { customerSub: null },
    });
    expect(await findShippedSim(db, testIccid(3))).toBeNull();
  });

  it.each([
    ["one that fails the Luhn check", () => [misprintedIccid(10), testIccid(11)], /no es válido/],
    ["too few", () => [testIccid(12)], /lleva 2 SIM: indica 2 ICCID .*\(recibí 1\)/],
    ["too many", () => [testIccid(13), testIccid(14), testIccid(15)], /recibí 3/],
    ["the same twice", () => [testIccid(16), testIccid(16)], /está repetido/],
  ])("refuses %s: the order stays unshipped", async (_name, iccids, message) => {
    const order = await makeOrder(db);
    const result = refusal(
      await shipOrder(db, order.folio, { trackingNumber: "1", iccids: iccids(), actor: ACTOR }),
    );
    expect(result.code).toBe("invalid_input");
    expect(result.message).toMatch(message);
    const row = await db
      .selectFrom("orders")
      .select("shipped_at")
      .where("id", "=", order.ref)
      .executeTakeFirstOrThrow();
    expect(row.shipped_at).toBeNull();
    expect(await shippedSims()).toEqual([]);
    expect(await statusChanges(db)).toEqual([]);
    expect(await queuedMail(db)).toEqual([]);
  });

  it("refuses an ICCID already shipped with another order, naming that order", async () => {
    const first = await makeOrder(db, { items: [{ id: "conecta-150", quantity: 1 }] });
    const second = await makeOrder(db, { items: [{ id: "conecta-150", quantity: 1 }] });
    applied(
      await shipOrder(db, first.folio, {
        trackingNumber: "1",
        iccids: [testIccid(20)],
        actor: ACTOR,
      }),
    );
    const result = refusal(
      await shipOrder(db, second.folio, {
        trackingNumber: "2",
        iccids: [testIccid(20)],
        actor: ACTOR,
      }),
    );
    expect(result.message).toBe(
      `El ICCID ${testIccid(20)} ya se registró con el pedido ${first.folio}; no se cambió nada.`,
    );
    expect(await shippedSims()).toHaveLength(1);
  });

  it("records them later for an order shipped without them, once, without an e-mail", async () => {
    const order = await makeOrder(db);
    expect(
      refusal(await recordShippedIccids(db, order.folio, { iccids: [testIccid(30)], actor: ACTOR }))
        .message,
    ).toMatch(/aún no está enviado/);
    applied(await shipOrder(db, order.folio, { trackingNumber: "1", actor: ACTOR }));
    const result = applied(
      await recordShippedIccids(db, order.folio, {
        iccids: [testIccid(30), testIccid(31)],
        actor: ACTOR,
      }),
    );
    expect(result).toMatchObject({
      fromStatus: "shipped",
      toStatus: "shipped",
      detail: { iccids: `${testIccid(30)},${testIccid(31)}` },
      mailQueued: false,
    });
    expect(await shippedSims()).toHaveLength(2);
    expect(await queuedMail(db)).toHaveLength(1);
    expect(
      refusal(
        await recordShippedIccids(db, order.folio, {
          iccids: [testIccid(32), testIccid(33)],
          actor: ACTOR,
        }),
      ).message,
    ).toMatch(/ya tiene sus ICCID registrados/);
    const esim = await makeOrder(db, { simType: "esim" });
    expect(
      refusal(await recordShippedIccids(db, esim.folio, { iccids: [testIccid(34)], actor: ACTOR }))
        .code,
    ).toBe("not_physical");
  });
});
