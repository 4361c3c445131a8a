import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { forgetPasskeyUses, passkeyUses, recordPasskeyUse } from "./passkey-uses.server";

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

describe("when each passkey last signed its account in", () => {
  it("keeps the latest use per account and passkey, and forgets a deleted passkey", async () => {
    const first = new Date("2026-11-01T10:00:00.000Z");
    const later = new Date("2026-11-20T10:00:00.000Z");
    await recordPasskeyUse(db, { sub: "ana", credentialId: "cred-a" }, first);
    await recordPasskeyUse(db, { sub: "ana", credentialId: "cred-a" }, later);
    await recordPasskeyUse(db, { sub: "ana", credentialId: "cred-b" }, first);
    await recordPasskeyUse(db, { sub: "beto", credentialId: "cred-a" }, first);
    expect(Object.fromEntries(await passkeyUses(db, "ana"))).toEqual({
      "cred-a": later.toISOString(),
      "cred-b": first.toISOString(),
    });
    await forgetPasskeyUses(db, "ana", "cred-a");
    expect([...(await passkeyUses(db, "ana")).keys()]).toEqual(["cred-b"]);
    expect([...(await passkeyUses(db, "beto")).keys()]).toEqual(["cred-a"]);
  });
});
