import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { curpCheckDigit } from "./curp";
import { holderSchema, type Holder } from "./holder";
import { disputedRegistrationIds, disputeNotice, findNotice } from "./registration-notices.server";
import {
  createRegistrationKeys,
  registerLine,
  type RegisterLineInput,
} from "./registrations.server";

// Issue 47, decision 0136: every registration to a person tells the contacts of that person's
// registrations already there, with a "no fui yo" link the operator then lists.

const CURP = `GOMA850312MDFRRN0${curpCheckDigit("GOMA850312MDFRRN0")}`;
const keys = createRegistrationKeys(["a-session-secret-of-at-least-32-characters"]);
const beatriz: Holder = holderSchema.parse({
  holder_kind: "fisica",
  full_name: "Beatriz Gómez Martínez",
  curp: CURP,
  identification_type: "ine",
});
const valid = { outcome: "valid", source: "sandbox", reference: null } as const;

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
  await db
    .insertInto("account_emails")
    .values({ account_sub: "sub-beatriz", email: "beatriz@example.mx", recorded_at: "2026-12-01" })
    .execute();
});
afterEach(async () => {
  await db.destroy();
});

async function register(overrides: Partial<RegisterLineInput>) {
  const outcome = await registerLine(db, keys, {
    number: "5511110001",
    holder: beatriz,
    validation: valid,
    channel: "online",
    accountSub: null,
    ...overrides,
  });
  if (outcome.kind !== "registered") throw new Error(outcome.kind);
  return outcome;
}

async function noticeMails() {
  return db
    .selectFrom("mail_queue")
    .select(["to_address", "data"])
    .where("template", "=", "registration_notice")
    .execute();
}

describe("the notice of a new registration", () => {
  it("e-mails the account of the person's earlier registration, and texts a line registered without one", async () => {
    const first = await register({ number: "5511110001", accountSub: "sub-beatriz" });
    expect(first.smsNotices).toEqual([]);
    const second = await register({ number: "5511110002", accountSub: null, channel: "tienda" });
    // The first was made by an account with an e-mail: an e-mail, no SMS.
    expect(second.smsNotices).toEqual([]);
    const mails = await noticeMails();
    expect(mails).toHaveLength(1);
    expect(mails[0].to_address).toBe("beatriz@example.mx");
    const data = JSON.parse(mails[0].data) as { registrationId: string; token: string };
    expect(data.registrationId).toBe(second.registration.id);
    expect(mails[0].data).not.toContain(CURP);

    // A third line: the first's account is e-mailed again, the second line (no account) texted.
    const third = await register({ number: "5511110003", accountSub: null });
    expect(third.smsNotices.map((notice) => notice.to)).toEqual(["5511110002"]);
    expect(third.smsNotices[0].token).toMatch(/^[0-9a-f]{32}$/);
    expect(await noticeMails()).toHaveLength(2);
    // Nothing of the token in clear in the notices' table.
    const notices = await db.selectFrom("registration_notices").selectAll().execute();
    expect(notices).toHaveLength(3);
    expect(JSON.stringify(notices)).not.toContain(third.smsNotices[0].token);
  });

  it("tells no one of a person's first line, nor an account of its own registration", async () => {
    await register({ number: "5511110001", accountSub: "sub-beatriz" });
    const own = await register({ number: "5511110002", accountSub: "sub-beatriz" });
    expect(own.smsNotices).toEqual([]);
    expect(await noticeMails()).toEqual([]);
  });

  it("records 'no fui yo' once by the link's token, for the operator's list", async () => {
    await register({ number: "5511110001" });
    const second = await register({ number: "5511110002" });
    const [notice] = second.smsNotices;
    expect(await findNotice(db, notice.token)).toEqual({
      registrationId: second.registration.id,
      disputedAt: null,
    });
    expect(await findNotice(db, "a".repeat(32))).toBeNull();
    expect(await findNotice(db, "not a token")).toBeNull();
    expect(await disputeNotice(db, "a".repeat(32))).toBe(false);

    expect(await disputeNotice(db, notice.token, new Date("2026-12-07T18:00:00Z"))).toBe(true);
    expect(await disputeNotice(db, notice.token, new Date("2026-12-08T18:00:00Z"))).toBe(true);
    expect(await disputedRegistrationIds(db)).toEqual([
      { registrationId: second.registration.id, disputedAt: "2026-12-07T18:00:00.000Z" },
    ]);
  });
});
