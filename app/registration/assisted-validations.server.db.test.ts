import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import {
  listAssistedValidations,
  recordAssistedValidation,
  type AssistedValidationInput,
} from "./assisted-validations.server";

// Issue 48, decision 0140: requests for an assisted validation, one per form key, with a folio.

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

const input = (key: string, overrides: Partial<AssistedValidationInput> = {}) => ({
  idempotencyKey: key,
  number: "5511110001",
  contact: { kind: "email" as const, value: "ana@ejemplo.mx" },
  timeWindow: "manana" as const,
  ...overrides,
});

describe("assisted validations", () => {
  it("records a request with the next VAL folio of the year", async () => {
    const first = await recordAssistedValidation(db, input("key-1"));
    const second = await recordAssistedValidation(
      db,
      input("key-2", { contact: { kind: "phone", value: "5587654321" }, timeWindow: "noche" }),
    );
    expect(first.created).toBe(true);
    expect(first.request.folio).toMatch(/^VAL-\d{4}-000001$/);
    expect(second.request.folio).toMatch(/^VAL-\d{4}-000002$/);
    expect(second.request).toMatchObject({
      number: "5511110001",
      contact: { kind: "phone", value: "5587654321" },
      timeWindow: "noche",
    });
  });

  it("records a form key once, even sent twice at the same time", async () => {
    const [one, two] = await Promise.all([
      recordAssistedValidation(db, input("same-key")),
      recordAssistedValidation(db, input("same-key")),
    ]);
    expect(one.request.folio).toBe(two.request.folio);
    expect([one.created, two.created].sort()).toEqual([false, true]);
    const again = await recordAssistedValidation(db, input("same-key", { number: "5599999999" }));
    expect(again).toEqual({ request: one.request, created: false });
    expect(await listAssistedValidations(db)).toHaveLength(1);
  });

  it("lists them newest first, by the Mexico City days they were made", async () => {
    const first = await recordAssistedValidation(db, input("k1"));
    const second = await recordAssistedValidation(db, input("k2"));
    // Made on 1 June at 23:30 in Mexico City (05:30 UTC the next day).
    await db
      .updateTable("assisted_validations")
      .set({ created_at: "2026-06-02T05:30:00.000Z" })
      .where("id", "=", first.request.id)
      .execute();
    const all = await listAssistedValidations(db);
    expect(all.map((row) => row.folio)).toEqual([second.request.folio, first.request.folio]);
    const june1 = await listAssistedValidations(db, { from: "2026-06-01", to: "2026-06-01" });
    expect(june1.map((row) => row.folio)).toEqual([first.request.folio]);
    expect(await listAssistedValidations(db, { from: "2026-06-02", to: "2026-06-02" })).toEqual([]);
  });
});
