import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "./db.server";
import { formatFolio, yearInMexico } from "./folio";
import { nextFolio } from "./folio-counter.server";

let db: Db;
beforeEach(async () => {
  db = await openDatabase({ dataDir: null });
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
