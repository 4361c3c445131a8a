import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import type { Db } from "./db.server";
import { formatFolio, yearInMexico } from "./folio";
import { nextFolio } from "./folio-counter.server";

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

describe("folios", () => {
  it("read PED-YYYY-NNNNNN", () => {
    expect(formatFolio("PED", 2026, 123)).toBe("PED-2026-000123");
    expect(formatFolio("PED", 2026, 1_234_567)).toBe("PED-2026-1234567");
  });

  it("count by the calendar year in Mexico City", () => {
    expect(yearInMexico(new Date("2027-01-01T03:00:00Z"))).toBe(2026);
    expect(yearInMexico(new Date("2027-01-01T07:00:00Z"))).toBe(2027);
  });

  it("follow one another per series and year, restarting each year", async () => {
    const date = new Date("2026-06-01T12:00:00Z");
    expect(await nextFolio(db, "PED", date)).toBe("PED-2026-000001");
    expect(await nextFolio(db, "PED", date)).toBe("PED-2026-000002");
    expect(await nextFolio(db, "POR", date)).toBe("POR-2026-000001");
    expect(await nextFolio(db, "PED", new Date("2027-06-01T12:00:00Z"))).toBe("PED-2027-000001");
  });
});

describe("folios taken by concurrent transactions", () => {
  it("are distinct and consecutive when many transactions take them at once", async () => {
    const date = new Date("2026-06-01T12:00:00Z");
    const taken = await Promise.all(
      Array.from({ length: 40 }, () =>
        db.transaction().execute((trx) => nextFolio(trx, "PED", date)),
      ),
    );
    expect(new Set(taken).size).toBe(40);
    expect([...taken].sort()).toEqual(
      Array.from({ length: 40 }, (_, index) => formatFolio("PED", 2026, index + 1)),
    );
  });

  it("given back by a transaction that failed are taken by the next one", async () => {
    const date = new Date("2026-06-01T12:00:00Z");
    await expect(
      db.transaction().execute(async (trx) => {
        await nextFolio(trx, "PED", date);
        throw new Error("the document could not be written");
      }),
    ).rejects.toThrow("could not be written");
    expect(await nextFolio(db, "PED", date)).toBe("PED-2026-000001");
  });
});
