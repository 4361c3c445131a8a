import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { curpCheckDigit } from "~/registration/curp";
import { holderSchema, type Holder } from "~/registration/holder";
import { createRegistrationKeys, registerLine } from "~/registration/registrations.server";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { disputeNotice } from "~/registration/registration-notices.server";
import {
  csvRecords,
  DISPUTED_REGISTRATION_COLUMNS,
  listTable,
  REGISTRATION_COLUMNS,
} from "./format";
import { REGISTRATION_STATE_WORDS } from "./labels";
import {
  listDisputedRegistrationRows,
  listRegistrationRows,
  rekeyRegistrationRows,
} from "./registrations.server";

const CURP = "GOMA850312MDFRRN0" + curpCheckDigit("GOMA850312MDFRRN0");
const keys = createRegistrationKeys(["an-ops-session-secret-of-32-characters-at-least"]);
const valid = { outcome: "valid", source: "RENAPO", reference: "R-77" } as const;

const holder = (fields: Record<string, unknown>): Holder => holderSchema.parse(fields);
const beatriz = holder({
  holder_kind: "fisica",
  full_name: "Beatriz Gómez Martínez",
  curp: CURP,
  identification_type: "ine",
});
const tourist = holder({
  holder_kind: "extranjera",
  full_name: "John Smith",
  passport_number: "X1234567",
  nationality: "US",
});

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

async function register(number: string, who: Holder, at: string) {
  const outcome = await registerLine(db, keys, {
    number,
    holder: who,
    validation: valid,
    channel: "online",
    accountSub: null,
    now: new Date(at),
  });
  if (outcome.kind !== "registered") throw new Error(outcome.kind);
  return outcome.registration;
}

describe("the operator's list of registrations", () => {
  it("lists the current registrations newest first, by Mexico City days, the key masked", async () => {
    // 30 June 2026 at 23:30 in Mexico City is already 1 July in UTC.
    const june = await register("5511110001", beatriz, "2026-07-01T05:30:00.000Z");
    const july = await register("5511110002", tourist, "2026-07-02T17:00:00.000Z");
    // Registered again to another holder: only the replacing registration is current.
    const replaced = await register("5511110003", beatriz, "2026-07-03T17:00:00.000Z");
    const replacing = await register("5511110003", tourist, "2026-07-04T17:00:00.000Z");

    const all = await listRegistrationRows(db, keys);
    expect(all.map((row) => row.folio)).toEqual([replacing.folio, july.folio, june.folio]);
    expect(all.map((row) => row.folio)).not.toContain(replaced.folio);
    expect(all.every((row) => row.holderKey === null)).toBe(true);

    expect(
      (await listRegistrationRows(db, keys, { to: "2026-06-30" })).map((row) => row.folio),
    ).toEqual([june.folio]);
    expect(
      (await listRegistrationRows(db, keys, { from: "2026-07-01", to: "2026-07-02" })).map(
        (row) => row.number,
      ),
    ).toEqual(["5511110002"]);

    const table = listTable(REGISTRATION_COLUMNS, all);
    expect(table).toContain("Persona física");
    expect(table).toContain("Beatriz Gómez Martínez");
    expect(table).toContain("GOMA••••••••••••");
    expect(table).toContain("2026-06-30 23:30");
    expect(table).not.toContain(CURP);
    expect(table).not.toContain("X1234567");
  });

  it("opens the whole CURP or passport for the CSV only", async () => {
    await register("5511110001", beatriz, "2026-07-01T05:30:00.000Z");
    await register("5511110002", tourist, "2026-07-02T17:00:00.000Z");
    const rows = await listRegistrationRows(db, keys, { reveal: true });
    const { headers, records } = csvRecords(REGISTRATION_COLUMNS, rows);
    const keyColumn = headers.indexOf("CURP/RFC");
    expect(records.map((record) => record[keyColumn])).toEqual(["X1234567 (US)", CURP]);
    expect(records[1]).toEqual(
      expect.arrayContaining(["INE", "RENAPO", "R-77", "En línea", "2026-06-30 23:30"]),
    );
    // Sealed under a secret the server no longer has: the CSV says only the masked key.
    const stranger = createRegistrationKeys(["another-secret-of-at-least-32-characters!"]);
    const unreadable = await listRegistrationRows(db, stranger, { reveal: true });
    const masked = csvRecords(REGISTRATION_COLUMNS, unreadable).records[1][keyColumn];
    expect(masked).toMatch(/^GOMA•+/);
  });

  it("rekeys every registration under the newest secret, counting what no listed secret opens", async () => {
    await register("5511110001", beatriz, "2026-07-01T05:30:00.000Z");
    await register("5511110002", tourist, "2026-07-02T17:00:00.000Z");
    const rotated = createRegistrationKeys([
      "the-new-ops-session-secret-of-32-characters",
      "an-ops-session-secret-of-32-characters-at-least",
    ]);
    expect(await rekeyRegistrationRows(db, rotated)).toEqual({
      rewritten: 2,
      waitingHolders: 0,
      unreadable: 0,
      total: 2,
    });
    expect(await rekeyRegistrationRows(db, rotated)).toEqual({
      rewritten: 0,
      waitingHolders: 0,
      unreadable: 0,
      total: 2,
    });
    // The old secret removed: both still open.
    const newOnly = createRegistrationKeys(["the-new-ops-session-secret-of-32-characters"]);
    const rows = await listRegistrationRows(db, newOnly, { reveal: true });
    expect(rows.map((row) => row.holderKey)).toEqual(["US:X1234567", CURP]);
    // Removed before the rekey, another secret's registrations are told, never rewritten.
    const stranger = createRegistrationKeys(["another-secret-of-at-least-32-characters!"]);
    expect(await rekeyRegistrationRows(db, stranger)).toEqual({
      rewritten: 0,
      waitingHolders: 0,
      unreadable: 2,
      total: 2,
    });
  });
});

describe("the registrations disputed (registros --estado disputada, decision 0136)", () => {
  it("lists each registration someone said 'no fui yo' about, with when, the key masked", async () => {
    await register("5511110001", beatriz, "2026-07-01T17:00:00.000Z");
    const outcome = await registerLine(db, keys, {
      number: "5511110002",
      holder: beatriz,
      validation: valid,
      channel: "online",
      accountSub: null,
      now: new Date("2026-07-02T17:00:00.000Z"),
    });
    if (outcome.kind !== "registered") throw new Error(outcome.kind);
    expect(await listDisputedRegistrationRows(db, keys)).toEqual([]);
    // The first line got the SMS notice, and its holder pressed "No fui yo".
    await disputeNotice(db, outcome.smsNotices[0].token, new Date("2026-07-02T18:00:00.000Z"));

    const rows = await listDisputedRegistrationRows(db, keys);
    expect(rows).toMatchObject([
      { folio: outcome.registration.folio, number: "5511110002", holderKey: null },
    ]);
    const table = listTable(DISPUTED_REGISTRATION_COLUMNS, rows);
    expect(table).toContain("«No fui yo» el");
    expect(table).toContain("5511110002");
    expect(table).not.toContain(CURP);
    expect(REGISTRATION_STATE_WORDS.disputada).toBe("disputed");
    const [revealed] = await listDisputedRegistrationRows(db, keys, { reveal: true });
    expect(revealed.holderKey).toBe(CURP);
  });
});
