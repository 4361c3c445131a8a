import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { recordAccountEmail } from "./account-emails.server";

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

const recorded = () =>
  db.selectFrom("account_emails").select(["account_sub", "email", "recorded_at"]).execute();

describe("the account's address as of its last sign-in", () => {
  it("keeps the newest proved address of each account", async () => {
    const first = new Date("2026-11-01T10:00:00.000Z");
    const later = new Date("2026-11-20T10:00:00.000Z");
    await recordAccountEmail(
      db,
      { sub: "ana", email: "ana@example.mx", emailVerified: true },
      first,
    );
    await recordAccountEmail(db, { sub: "ana", email: "ana@nuevo.mx", emailVerified: true }, later);
    expect(await recorded()).toEqual([
      { account_sub: "ana", email: "ana@nuevo.mx", recorded_at: later.toISOString() },
    ]);
  });

  it("forgets it when the account's address is no longer a proved one", async () => {
    const now = new Date("2026-11-01T10:00:00.000Z");
    await recordAccountEmail(db, { sub: "ana", email: "ana@example.mx", emailVerified: true }, now);
    await recordAccountEmail(
      db,
      { sub: "ana", email: "otra@example.mx", emailVerified: false },
      now,
    );
    expect(await recorded()).toEqual([]);
  });
});
