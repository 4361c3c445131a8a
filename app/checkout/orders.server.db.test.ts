import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { priceCart } from "~/cart/cart-lines";
import { createCatalogue, type Catalogue } from "~/catalog/catalog.server";
import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { reorderKey } from "./reorder-key";
import { DATABASE_FILE_NAME, isDatabaseUnavailable, openDatabase, type Db } from "~/db/db.server";
import {
  createPostgresDatabase,
  databaseEngine,
  openDatabaseUnderTest,
} from "../../tests/support/test-database";
import * as z from "zod";
import {
  cancelOrder,
  findOrder,
  markOrderPaid,
  placeCheckoutOrder,
  placeOrder,
  type PlaceOrderInput,
} from "./orders.server";

let db: Db;
let catalogue: Catalogue;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  catalogue = createCatalogue(db);
  await catalogue.seed(PLAN_CATALOGUE);
});
afterEach(async () => {
  await db.destroy();
});

const customer: PlaceOrderInput["customer"] = {
  full_name: "Ana López",
  email: "ana@example.com",
  phone_number: "5512345678",
  sim_type: "physical",
  delivery: {
    street: "Av. Insurgentes Sur",
    exterior_number: "1234",
    interior_number: undefined,
    neighborhood: "Del Valle",
    postal_code: "03100",
    municipality: "Benito Juárez",
    state: "CMX",
  },
};

function input(key: string, items = [{ id: "conecta-150", quantity: 2 }]): PlaceOrderInput {
  return { idempotencyKey: key, customer, lines: priceCart(items, catalogue.find).lines };
}

describe("placing an order", () => {
  it("stores the lines priced from the catalogue, pending payment, with an unguessable reference", async () => {
    const { order, created } = await placeOrder(db, input("key-1"));
    expect(created).toBe(true);
    expect(order.status).toBe("pending_payment");
    expect(order.folio).toMatch(/^PED-\d{4}-000001$/);
    expect(order.ref).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(order.total).toBe(300);
    expect(order.lines).toEqual([
      {
        planId: "conecta-150",
        planName: "Conecta 150",
        unitPrice: 150,
        quantity: 2,
        lineTotal: 300,
      },
    ]);
    expect(order.simType).toBe("physical");
    expect(order.delivery?.interiorNumber).toBeNull();
    expect(await findOrder(db, order.ref)).toEqual(order);
  });

  it("keeps an eSIM order without a delivery address", async () => {
    const { order } = await placeOrder(db, {
      ...input("esim-order"),
      customer: { ...customer, sim_type: "esim", delivery: null },
    });
    expect(order.simType).toBe("esim");
    expect(order.delivery).toBeNull();
    expect((await findOrder(db, order.ref))?.delivery).toBeNull();
  });

  it("creates one order per idempotency key, however often it is submitted", async () => {
    const first = await placeOrder(db, input("same-key"));
    const again = await placeOrder(db, input("same-key", [{ id: "conecta-500", quantity: 9 }]));
    expect(again.created).toBe(false);
    expect(again.order).toEqual(first.order);
    const count = await db.selectFrom("orders").select(db.fn.countAll().as("n")).executeTakeFirst();
    expect(Number(count?.n)).toBe(1);
  });

  it("creates one order when the same key arrives concurrently", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => placeOrder(db, input("racing-key"))),
    );
    expect(new Set(results.map((result) => result.order.ref)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const rows = await db.selectFrom("orders").select("folio").execute();
    expect(rows).toHaveLength(1);
  });

  it("gives different keys different orders and folios", async () => {
    const a = await placeOrder(db, input("key-a"));
    const b = await placeOrder(db, input("key-b"));
    expect(a.order.ref).not.toBe(b.order.ref);
    expect(a.order.folio).not.toBe(b.order.folio);
  });

  it("gives orders placed together distinct, consecutive folios, each taken as its last write", async () => {
    const placed = await Promise.all(
      ["together-a", "together-b", "together-c", "together-d"].map((key) =>
        placeOrder(db, input(key)),
      ),
    );
    const numbers = placed.map((each) => {
      expect(each.order.folio).toMatch(/^PED-\d{4}-\d{6}$/);
      return Number(each.order.folio.slice(-6));
    });
    expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
  });

  it("refuses an empty order", async () => {
    await expect(placeOrder(db, input("empty", []))).rejects.toThrow();
  });

  it("marks an order paid once", async () => {
    const { order } = await placeOrder(db, input("pay-me"));
    expect(await markOrderPaid(db, order.ref, "2026-06-01T12:00:00.000Z")).toBe(true);
    expect(await markOrderPaid(db, order.ref, "2026-06-02T12:00:00.000Z")).toBe(false);
    const paid = await findOrder(db, order.ref);
    expect(paid?.status).toBe("paid");
    expect(paid?.paidAt).toBe("2026-06-01T12:00:00.000Z");
  });
});

describe("buying again the cart of a cancelled order", () => {
  const formKey = "0b5f7c1e-8d0a-4c4f-9d7e-3f2a1b6c5d4e";
  const cancel = (ref: string) => cancelOrder(db, ref, "2026-11-24T12:00:00.000Z");

  it("is one new order, however often and however concurrently the form is sent", async () => {
    const first = await placeCheckoutOrder(db, input(formKey));
    expect(first).toMatchObject({ created: true, idempotencyKey: formKey });
    expect(await cancel(first.order.ref)).toBe(true);

    // A double click: both submissions carry the cancelled order's key.
    const [a, b] = await Promise.all([
      placeCheckoutOrder(db, input(formKey)),
      placeCheckoutOrder(db, input(formKey)),
    ]);
    expect(a.order.ref).toBe(b.order.ref);
    expect(a.order.ref).not.toBe(first.order.ref);
    expect(a.order.status).toBe("pending_payment");
    expect(a.idempotencyKey).toBe(reorderKey(formKey));
    // The form and the cookie accept only UUIDs: the browser goes on under the new key.
    expect(z.uuid().safeParse(a.idempotencyKey).success).toBe(true);
    // The form sent once more later, from the back button: still that order.
    expect((await placeCheckoutOrder(db, input(formKey))).order.ref).toBe(a.order.ref);

    // That order's voucher expired too: the old form and the new one lead to one third order.
    await cancel(a.order.ref);
    const third = await placeCheckoutOrder(db, input(formKey));
    const fromNewForm = await placeCheckoutOrder(db, input(a.idempotencyKey));
    expect(fromNewForm.order.ref).toBe(third.order.ref);
    expect([first.order.ref, a.order.ref]).not.toContain(third.order.ref);
    const rows = await db.selectFrom("orders").select("status").execute();
    expect(rows.map((row) => row.status).sort()).toEqual([
      "cancelled",
      "cancelled",
      "pending_payment",
    ]);
  });

  it("derives keys no one could guess without the cancelled order's", () => {
    expect(reorderKey(formKey)).toBe(reorderKey(formKey));
    expect(reorderKey(formKey)).not.toBe(reorderKey("0b5f7c1e-8d0a-4c4f-9d7e-3f2a1b6c5d4f"));
    expect(reorderKey(formKey)).not.toContain(formKey.slice(0, 8));
  });
});

/**
 * A database another process can lock (`hold` until `release`): SQLite's write lock, as a backup
 * or the sqlite3 shell takes it; on PostgreSQL, an exclusive lock on the table orders go to.
 */
async function databaseAnotherProcessLocks() {
  if (databaseEngine() === "postgres") {
    const url = await createPostgresDatabase();
    const db = await openDatabase({ dataDir: null, databaseUrl: url, statementTimeoutMs: 200 });
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    return {
      db,
      hold: async () => {
        await other.query("begin");
        await other.query("lock table orders in access exclusive mode");
      },
      release: () => other.query("rollback"),
      close: async () => {
        await other.end();
        await db.destroy();
      },
    };
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "orders-locked-"));
  const db = await openDatabase({ dataDir, busyTimeoutMs: 50 });
  const other = new SQLite(path.join(dataDir, DATABASE_FILE_NAME));
  return {
    db,
    hold: async () => void other.exec("BEGIN IMMEDIATE"),
    release: async () => void other.exec("ROLLBACK"),
    close: async () => {
      other.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("when another process holds the database", () => {
  it("gives up quickly with an error the page can name, and writes nothing", async () => {
    const locked = await databaseAnotherProcessLocks();
    const lockedDb = locked.db;
    try {
      const lockedCatalogue = createCatalogue(lockedDb);
      await lockedCatalogue.seed(PLAN_CATALOGUE);
      await locked.hold();
      const lines = priceCart([{ id: "conecta-150", quantity: 1 }], lockedCatalogue.find).lines;
      const error = await placeOrder(lockedDb, { idempotencyKey: "k", customer, lines }).catch(
        (caught: unknown) => caught,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
      await locked.release();

      expect(await lockedDb.selectFrom("orders").selectAll().execute()).toEqual([]);
      const { order } = await placeOrder(lockedDb, { idempotencyKey: "k", customer, lines });
      expect(order.total).toBe(150);
    } finally {
      await locked.close();
    }
  });

  it("tells apart an unavailable database from a bug", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "SQLITE_BUSY" }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(Object.assign(new Error("x"), { code: "SQLITE_IOERR_WRITE" })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error("x"), { code: "SQLITE_CONSTRAINT" })),
    ).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x"))).toBe(false);
  });

  it("tells apart an unavailable PostgreSQL from a bug", () => {
    const failure = (code: string) => Object.assign(new Error("x"), { code });
    // Restarting, statement or lock timeout, connection lost, too many connections, deadlock.
    for (const code of ["57P01", "57P03", "57014", "55P03", "08006", "53300", "40P01"]) {
      expect(isDatabaseUnavailable(failure(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(failure("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([failure("ECONNREFUSED"), failure("ECONNREFUSED")])),
    ).toBe(true);
    // A unique violation, a syntax error, an unknown column: bugs or races handled elsewhere.
    for (const code of ["23505", "42601", "42703"]) {
      expect(isDatabaseUnavailable(failure(code)), code).toBe(false);
    }
  });

  it("names a PostgreSQL server that does not answer as unavailable", async () => {
    const error = await openDatabase({
      dataDir: null,
      databaseUrl: "postgres://storefront:storefront@127.0.0.1:1/storefront",
      statementTimeoutMs: 500,
    }).catch((caught: unknown) => caught);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
