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
import { shipOrder } from "./shipping.server";

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
