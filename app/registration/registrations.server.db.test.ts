import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { mexicoCityDateTime } from "~/lib/mexico-city-days";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { curpCheckDigit } from "./curp";
import { holderSchema, type Holder } from "./holder";
import {
  createRegistrationKeys,
  currentLinesOfHolder,
  currentLinesOfPerson,
  currentRegistration,
  failedAttemptsSince,
  listRegistrations,
  onlineAttemptsLeftFor,
  recordValidationAttempt,
  registerLine,
  registrationHistory,
  rekeyRegistrations,
  revealHolderKey,
  type RegisterLineInput,
} from "./registrations.server";

const withCheckDigit = (first17: string) => first17 + curpCheckDigit(first17);
const CURP = withCheckDigit("GOMA850312MDFRRN0");
const OTHER_CURP = withCheckDigit("PEJL900101HDFRRS0");

const SECRET = "a-session-secret-of-at-least-32-characters";
const keys = createRegistrationKeys([SECRET]);

const holder = (fields: Record<string, unknown>): Holder => holderSchema.parse(fields);
const beatriz = holder({
  holder_kind: "fisica",
  full_name: "Beatriz Gómez Martínez",
  curp: CURP,
  identification_type: "ine",
});
const luis = holder({
  holder_kind: "fisica",
  full_name: "Luis Pérez Juárez",
  curp: OTHER_CURP,
  identification_type: "pasaporte",
});
const company = holder({
  holder_kind: "moral",
  business_name: "Escuela Kemper Urgate, S.A. de C.V.",
  rfc: "EKU9003173C9",
  representative_name: "Beatriz Gómez Martínez",
  representative_curp: CURP,
  representative_identification_type: "ine",
});
const valid = { outcome: "valid", source: "sandbox", reference: "SBX-1" } as const;
// 31 December 2026 at 20:05 in Mexico City: still 2026 there, already 2027 in UTC.
const now = new Date("2027-01-01T02:05:00.000Z");

const numberAt = (index: number) => `55990${String(index).padStart(5, "0")}`;
const input = (overrides: Partial<RegisterLineInput> = {}): RegisterLineInput => ({
  number: "5511112222",
  holder: beatriz,
  validation: valid,
  channel: "online",
  accountSub: "ana",
  now,
  ...overrides,
});

let db: Db;
beforeEach(async () => {
  db = await openDatabaseUnderTest();
});
afterEach(async () => {
  await db.destroy();
});

async function registered(overrides: Partial<RegisterLineInput> = {}) {
  const outcome = await registerLine(db, keys, input(overrides));
  if (outcome.kind !== "registered") throw new Error(`expected a registration: ${outcome.kind}`);
  return outcome;
}

describe("registering a line", () => {
  it("gives a folio VIN-YYYY-NNNNNN of the Mexico City year, with its date and time there", async () => {
    const { registration, created } = await registered();
    expect(created).toBe(true);
    expect(registration).toMatchObject({
      folio: "VIN-2026-000001",
      number: "5511112222",
      holderKind: "fisica",
      holderName: "Beatriz Gómez Martínez",
      holderKeyMasked: `GOMA${"•".repeat(12)}${CURP.slice(-2)}`,
      identificationType: "ine",
      validation: valid,
      channel: "online",
      accountSub: "ana",
      registeredAt: now.toISOString(),
      replacedAt: null,
    });
    expect(mexicoCityDateTime(registration.registeredAt)).toBe("2026-12-31 20:05");
    expect((await registered({ number: "5511113333" })).registration.folio).toBe("VIN-2026-000002");
    expect(await currentRegistration(db, "5511112222")).toEqual(registration);
    expect(await currentRegistration(db, "5500000000")).toBeNull();
  });

  it("keeps the CURP sealed and only an HMAC of it, never the CURP in clear", async () => {
    const { registration } = await registered();
    const row = await db.selectFrom("registrations").selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(CURP);
    expect(await revealHolderKey(db, keys, registration.id)).toBe(CURP);
    expect(
      await revealHolderKey(db, createRegistrationKeys(["x".repeat(40)]), registration.id),
    ).toBe(null);
  });

  it("replaces another holder's registration, keeping both, with one current", async () => {
    const first = await registered();
    const second = await registered({
      holder: luis,
      now: new Date(now.getTime() + 60_000),
    });
    expect(second.replacedFolio).toBe(first.registration.folio);
    const current = await currentRegistration(db, "5511112222");
    expect(current).toMatchObject({ folio: "VIN-2026-000002", holderName: "Luis Pérez Juárez" });
    const history = await registrationHistory(db, "5511112222");
    expect(history.map((entry) => [entry.folio, entry.replacedAt, entry.replacedBy])).toEqual([
      ["VIN-2026-000002", null, null],
      ["VIN-2026-000001", new Date(now.getTime() + 60_000).toISOString(), current!.id],
    ]);
    expect(await currentLinesOfHolder(db, keys, CURP)).toBe(0);
    expect(await currentLinesOfHolder(db, keys, OTHER_CURP)).toBe(1);
  });

  it("refuses a second current holder in the database itself", async () => {
    await registered();
    const { id: _id, ...row } = await db
      .selectFrom("registrations")
      .selectAll()
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto("registrations")
        .values({ ...row, id: "another", folio: "VIN-2026-000099" })
        .execute(),
    ).rejects.toThrow();
  });

  it("keeps one current holder when several register one line at once", async () => {
    const john = holder({
      holder_kind: "extranjera",
      full_name: "John Smith",
      passport_number: "A12345678",
      nationality: "US",
    });
    const outcomes = await Promise.all(
      [beatriz, luis, company, john].map((someone) => registered({ holder: someone })),
    );
    expect(outcomes.every((outcome) => outcome.created)).toBe(true);
    const history = await registrationHistory(db, "5511112222");
    expect(history).toHaveLength(4);
    expect(history.filter((entry) => entry.replacedAt === null)).toHaveLength(1);
    expect(new Set(history.map((entry) => entry.holderKeyMasked))).toContain(
      `US:A${"•".repeat(6)}78`,
    );
  });

  it("registers a line once however often the same holder registers it", async () => {
    const first = await registered();
    const again = await registered({ now: new Date(now.getTime() + 1000) });
    expect(again).toEqual({ ...first, created: false });
    expect(await registrationHistory(db, "5511112222")).toHaveLength(1);
  });
});

describe("the 10-line limit", () => {
  async function registerTen() {
    for (let index = 1; index <= 10; index += 1) await registered({ number: numberAt(index) });
  }

  it("refuses an 11th line, saying how many the holder has and none of them", async () => {
    await registerTen();
    const outcome = await registerLine(db, keys, input({ number: numberAt(11) }));
    expect(outcome).toEqual({ kind: "line-limit", limit: 10, lines: 10 });
    expect(await currentRegistration(db, numberAt(11))).toBeNull();
    expect(await currentLinesOfHolder(db, keys, CURP)).toBe(10);
  });

  it("does not count a line the holder already has twice", async () => {
    await registerTen();
    const renamed = holder({
      holder_kind: "fisica",
      full_name: "Beatriz Gómez de Martínez",
      curp: CURP,
      identification_type: "pasaporte",
    });
    const again = await registered({ number: numberAt(3), holder: renamed });
    expect(again.created).toBe(true);
    expect(again.replacedFolio).toBe("VIN-2026-000003");
    expect(await currentLinesOfHolder(db, keys, CURP)).toBe(10);
  });

  it("frees a line when another holder registers it", async () => {
    await registerTen();
    await registered({ number: numberAt(1), holder: luis });
    expect((await registered({ number: numberAt(11) })).registration.number).toBe(numberAt(11));
  });

  it("holds under 15 concurrent registrations of one CURP: exactly 10 are made", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 15 }, (_, index) =>
        registerLine(db, keys, input({ number: numberAt(index + 1) })),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === "registered")).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.kind === "line-limit")).toEqual(
      Array.from({ length: 5 }, () => ({ kind: "line-limit", limit: 10, lines: 10 })),
    );
    expect(await currentLinesOfHolder(db, keys, CURP)).toBe(10);
  });

  it("does not limit a persona moral", async () => {
    for (let index = 1; index <= 12; index += 1) {
      await registered({ number: numberAt(index), holder: company });
    }
    expect(await currentLinesOfHolder(db, keys, "EKU9003173C9")).toBe(12);
  });

  it("still counts the lines registered before a secret rotation", async () => {
    await registerTen();
    const rotated = createRegistrationKeys(["n".repeat(40), SECRET]);
    expect(await registerLine(db, rotated, input({ number: numberAt(11) }))).toMatchObject({
      kind: "line-limit",
      lines: 10,
    });
    expect(await rekeyRegistrations(db, rotated)).toBe(10);
    const newOnly = createRegistrationKeys(["n".repeat(40)]);
    expect(await currentLinesOfHolder(db, newOnly, CURP)).toBe(10);
    const [first] = await listRegistrations(db);
    expect(await revealHolderKey(db, newOnly, first.id)).toBe(CURP);
  });
});

describe("one person, one count (decision 0136)", () => {
  // John Smith, a foreigner: his CURP temporal (born abroad: NE) and his passport.
  const TEMPORAL = withCheckDigit("SIXJ800101HNEMXH0");
  const withPassport = (nationality: string, curp?: string) =>
    holder({
      holder_kind: "extranjera",
      full_name: "John Smith",
      passport_number: "X12345678",
      nationality,
      ...(curp ? { curp } : {}),
    });

  it("counts a passport once whichever nationality is typed with it", async () => {
    const nationalities = ["US", "CA", "GB", "FR", "DE", "ES", "IT", "AR", "CO", "CL"];
    for (const [index, nationality] of nationalities.entries()) {
      await registered({ number: numberAt(index + 1), holder: withPassport(nationality) });
    }
    const eleventh = await registerLine(
      db,
      keys,
      input({ number: numberAt(11), holder: withPassport("BR") }),
    );
    expect(eleventh).toMatchObject({ kind: "line-limit", lines: 10 });
    expect(await currentLinesOfPerson(db, keys, withPassport("PE"))).toBe(10);
  });

  it("counts a foreigner's passport and CURP temporal together, once linked by a registration with both", async () => {
    // Five with the passport alone, one with both, four with the CURP temporal alone.
    for (let index = 1; index <= 5; index += 1) {
      await registered({ number: numberAt(index), holder: withPassport("US") });
    }
    await registered({ number: numberAt(6), holder: withPassport("US", TEMPORAL) });
    const temporalOnly = holder({
      holder_kind: "fisica",
      full_name: "John Smith",
      curp: TEMPORAL,
      identification_type: "pasaporte",
    });
    for (let index = 7; index <= 10; index += 1) {
      await registered({ number: numberAt(index), holder: temporalOnly });
    }
    // Neither identifier alone opens an 11th line: the CURP temporal reaches the passport's lines
    // through the registration that named both.
    for (const other of [temporalOnly, withPassport("CA"), withPassport("US", TEMPORAL)]) {
      expect(
        await registerLine(db, keys, input({ number: numberAt(11), holder: other })),
      ).toMatchObject({ kind: "line-limit", lines: 10 });
      expect(await currentLinesOfPerson(db, keys, other)).toBe(10);
    }
    expect(await currentRegistration(db, numberAt(11))).toBeNull();
    // Another person is not caught in it.
    expect((await registered({ number: numberAt(11), holder: luis })).created).toBe(true);
  });

  it("links passports registered before, once the operator reseals them", async () => {
    for (let index = 1; index <= 10; index += 1) {
      await registered({ number: numberAt(index), holder: withPassport("US") });
    }
    await db.updateTable("registrations").set({ passport_hash: null }).execute();
    expect(await currentLinesOfPerson(db, keys, withPassport("CA"))).toBe(0);
    expect(await rekeyRegistrations(db, keys)).toBe(10);
    expect(await currentLinesOfPerson(db, keys, withPassport("CA"))).toBe(10);
  });
});

describe("failed validations", () => {
  it("count the online failures of a number in the last 24 hours", async () => {
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    const attempt = (hours: number, outcome: "valid" | "not-found" | "name-mismatch") =>
      recordValidationAttempt(db, {
        number: "5511112222",
        outcome,
        channel: "online",
        now: hoursAgo(hours),
      });
    expect(await onlineAttemptsLeftFor(db, "5511112222", now)).toBe(3);
    await attempt(25, "not-found");
    await attempt(5, "valid");
    await attempt(3, "name-mismatch");
    await recordValidationAttempt(db, {
      number: "5511112222",
      outcome: "not-found",
      channel: "tienda",
      now: hoursAgo(1),
    });
    await recordValidationAttempt(db, {
      number: "5511113333",
      outcome: "not-found",
      channel: "online",
      now: hoursAgo(1),
    });
    expect(await onlineAttemptsLeftFor(db, "5511112222", now)).toBe(2);
    await attempt(2, "not-found");
    await attempt(1, "name-mismatch");
    expect(await onlineAttemptsLeftFor(db, "5511112222", now)).toBe(0);
    expect(await failedAttemptsSince(db, "5511112222", hoursAgo(24))).toEqual([
      hoursAgo(3).toISOString(),
      hoursAgo(2).toISOString(),
      hoursAgo(1).toISOString(),
    ]);
    // The oldest ages out 21 hours from now.
    expect(
      await onlineAttemptsLeftFor(db, "5511112222", new Date(now.getTime() + 21.5 * 3_600_000)),
    ).toBe(1);
  });
});

describe("the operator's list", () => {
  it("lists registrations by Mexico City day with the CURP masked", async () => {
    await registered({ number: "5511112222", now: new Date("2026-03-04T05:59:00Z") });
    await registered({ number: "5511113333", now: new Date("2026-03-04T06:00:00Z") });
    await registered({ number: "5511113333", holder: luis, now: new Date("2026-03-05T12:00:00Z") });
    const onTheFourth = await listRegistrations(db, { from: "2026-03-04", to: "2026-03-04" });
    expect(onTheFourth).toEqual([]);
    const withReplaced = await listRegistrations(db, {
      from: "2026-03-04",
      to: "2026-03-04",
      includeReplaced: true,
    });
    expect(withReplaced.map((entry) => entry.number)).toEqual(["5511113333"]);
    const all = await listRegistrations(db);
    expect(all.map((entry) => [entry.number, entry.holderKeyMasked])).toEqual([
      ["5511112222", `GOMA${"•".repeat(12)}${CURP.slice(-2)}`],
      ["5511113333", `PEJL${"•".repeat(12)}${OTHER_CURP.slice(-2)}`],
    ]);
    expect(JSON.stringify(all)).not.toContain(CURP);
  });
});

describe("errors", () => {
  it("never carry the holder's CURP, name or number", async () => {
    const errors: unknown[] = [];
    const attempts: RegisterLineInput[] = [
      input({ holder: { ...beatriz, curp: CURP.slice(0, 17) + "X" } as Holder }),
      input({ number: "55 1111 2222" }),
      input({ validation: { ...valid, outcome: "not-found" } as unknown as typeof valid }),
    ];
    for (const attempt of attempts) {
      errors.push(await registerLine(db, keys, attempt).catch((error: unknown) => error));
    }
    for (const error of errors) {
      expect(error).toBeInstanceOf(TypeError);
      const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
      expect(text).not.toContain(CURP.slice(0, 10));
      expect(text).not.toContain("Beatriz");
      expect(text).not.toContain("1111");
    }
    expect(await listRegistrations(db, { includeReplaced: true })).toEqual([]);
  });
});
