import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { createTopup, markTopupPaid } from "~/topup/topups.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { loadAccountHistory } from "./history.server";

const ANA = "sub-ana";

let db: Db;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

describe("the account overview", () => {
  it("shows masked lines and links each top-up to its receipt", async () => {
    const created = await createTopup(db, {
      customerSub: ANA,
      email: null,
      idempotencyKey: crypto.randomUUID(),
      phoneNumber: "5511112222",
      amount: 100,
    });
    if (created.kind === "conflict") throw new Error("unexpected conflict");
    const { topup } = created;
    expect(await markTopupPaid(db, topup.id, "2026-11-25T12:00:00.000Z")).toBe(true);
    const history = await loadAccountHistory(db, {
      sub: ANA,
      email: "ana@example.com",
      emailProven: true,
    });
    expect(history.maskedLines).toEqual(["55 •••• 2222"]);
    expect(history.topups).toEqual([
      expect.objectContaining({
        folio: topup.folio,
        href: `/recarga/${topup.id}`,
        maskedLine: "55 •••• 2222",
        status: "paid",
      }),
    ]);
    expect(JSON.stringify(history)).not.toContain("5511112222");
  });
});
