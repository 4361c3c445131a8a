import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "~/db/db.server";
import { luhnCheckDigit } from "~/lib/luhn";
import { openDatabaseUnderTest } from "../../tests/support/test-database";
import { type BssRefusalReason, isBssRefused } from "./bss";
import { isInvalidUsage, type InvalidUsage, topupOffer } from "./line";
import { type BssSimulator, createBssSimulator } from "./simulator.server";

const START = new Date("2026-03-10T18:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
/** Of the simulator's test ranges (decision 0090). */
const UNKNOWN = "9900000001";
const SUSPENDED = "9900010001";
const iso = (days: number) => new Date(START.getTime() + days * DAY).toISOString();

let db: Db;
let clock: Date;
let bss: BssSimulator;

beforeEach(async () => {
  db = await openDatabaseUnderTest();
  clock = START;
  bss = createBssSimulator({ db, now: () => clock });
});
afterEach(async () => {
  await db.destroy();
});

function iccid(serial: number): string {
  const body = `89529900${String(serial).padStart(10, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

function topup(topupId: string, number: string, amount: number) {
  const offer = topupOffer(amount);
  if (!offer) throw new Error(`no offer for ${amount}`);
  return bss.applyTopup({ topupId, number, amount, offerId: offer.offerId });
}

async function refusal(attempt: Promise<unknown>): Promise<BssRefusalReason> {
  const error = await attempt.then(
    () => null,
    (failure: unknown) => failure,
  );
  if (!isBssRefused(error)) throw new Error(`expected a BssRefused, got ${String(error)}`);
  return error.reason;
}

async function activate(serial = 1, offerId = "conecta-200") {
  const { number } = await bss.activateLine({
    externalId: `order-1.${serial}`,
    iccid: iccid(serial),
    offerId,
  });
  return number;
}

describe("activating a line", () => {
  it("assigns a test number and starts the plan with its balances", async () => {
    const number = await activate();
    expect(number).toBe("5599000001");
    expect(await activate(2)).toBe("5599000002");
    expect(await bss.findLine(number)).toEqual({
      number,
      status: "active",
      package: {
        offerId: "conecta-200",
        name: "Conecta 200",
        startsAt: iso(0),
        endsAt: iso(30),
      },
      balances: {
        moneyMxn: 0,
        dataMb: { remaining: 10240, total: 10240 },
        socialDataMb: "unlimited",
        minutes: "unlimited",
        sms: "unlimited",
      },
    });
  });

  it("answers the same number to a repeat, even a concurrent one", async () => {
    const input = { externalId: "order-7.0", iccid: iccid(7), offerId: "conecta-100" };
    const answers = await Promise.all([1, 2, 3, 4].map(() => bss.activateLine(input)));
    expect(new Set(answers.map((answer) => answer.number)).size).toBe(1);
    expect(await bss.activateLine(input)).toEqual(answers[0]);
    const lines = await db.selectFrom("bss_sim_lines").select("number").execute();
    expect(lines).toHaveLength(1);
    // The numbers taken for nothing by the repeats were given back.
    expect(await activate(8)).toBe("5599000002");
  });

  it("keeps a ported number", async () => {
    const { number } = await bss.activateLine({
      externalId: "portability-1",
      iccid: iccid(3),
      offerId: "conecta-local-80",
      number: "5512345678",
    });
    expect(number).toBe("5512345678");
    expect((await bss.findLine(number))?.balances).toMatchObject({
      minutes: { remaining: 1000, total: 1000 },
      sms: { remaining: 500, total: 500 },
      socialDataMb: null,
    });
  });

  it("refuses an ICCID that fails the Luhn check, a SIM or number already in use, a plan not sold", async () => {
    const valid = iccid(4);
    const wrongDigit = `${valid.slice(0, -1)}${(Number(valid.at(-1)) + 1) % 10}`;
    expect(
      await refusal(
        bss.activateLine({ externalId: "a", iccid: wrongDigit, offerId: "conecta-50" }),
      ),
    ).toBe("invalid-iccid");
    await bss.activateLine({ externalId: "b", iccid: valid, offerId: "conecta-50" });
    expect(
      await refusal(bss.activateLine({ externalId: "c", iccid: valid, offerId: "conecta-50" })),
    ).toBe("iccid-in-use");
    expect(
      await refusal(bss.activateLine({ externalId: "b", iccid: iccid(5), offerId: "conecta-50" })),
    ).toBe("reference-reused");
    expect(
      await refusal(
        bss.activateLine({
          externalId: "d",
          iccid: iccid(6),
          offerId: "conecta-50",
          number: "5599000001",
        }),
      ),
    ).toBe("number-in-use");
    expect(
      await refusal(
        bss.activateLine({ externalId: "e", iccid: iccid(9), offerId: "conecta-9000" }),
      ),
    ).toBe("unknown-offer");
    expect(await db.selectFrom("bss_sim_lines").select("number").execute()).toHaveLength(1);
  });

  it("refuses one SIM activated twice at once under two references", async () => {
    const sim = iccid(11);
    const outcomes = await Promise.allSettled(
      ["x", "y", "z"].map((externalId) =>
        bss.activateLine({ externalId, iccid: sim, offerId: "conecta-50" }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") {
        expect(isBssRefused(outcome.reason) && outcome.reason.reason).toBe("iccid-in-use");
      }
    }
  });
});

describe("finding a line", () => {
  it("answers null for a number the simulator does not know", async () => {
    expect(await bss.findLine(UNKNOWN)).toBeNull();
  });

  it("has every other number, as a sandbox: an active line with no package until topped up", async () => {
    expect(await bss.findLine("5511112222")).toEqual({
      number: "5511112222",
      status: "active",
      package: null,
      balances: { moneyMxn: 0, dataMb: null, socialDataMb: null, minutes: null, sms: null },
    });
    expect(await bss.usageByDay("5511112222", "2026-03-09", "2026-03-10")).toEqual([
      { day: "2026-03-09", dataMb: 0, minutes: 0, sms: 0 },
      { day: "2026-03-10", dataMb: 0, minutes: 0, sms: 0 },
    ]);
    // Nothing is kept for a number only looked at: it may still be ported in.
    expect(await db.selectFrom("bss_sim_lines").select("number").execute()).toEqual([]);
    await topup("topup-1", "5511112222", 100);
    expect((await bss.findLine("5511112222"))?.package).toEqual({
      offerId: "conecta-100",
      name: "Conecta 100",
      startsAt: iso(0),
      endsAt: iso(15),
    });
  });

  it("assigns none of the numbers it recorded that way", async () => {
    await topup("topup-1", "5599000001", 50);
    expect(await activate()).toBe("5599000002");
  });

  it("answers its test ranges as suspended and dada de baja lines", async () => {
    expect((await bss.findLine(SUSPENDED))?.status).toBe("suspended");
    expect((await bss.findLine("9900020001"))?.status).toBe("terminated");
    expect(await refusal(topup("topup-1", SUSPENDED, 100))).toBe("line-not-active");
    await bss.setLineStatus(SUSPENDED, "active");
    await topup("topup-1", SUSPENDED, 100);
    expect(await bss.findLine(SUSPENDED)).toMatchObject({
      status: "active",
      package: { offerId: "conecta-100" },
    });
    expect(await refusal(bss.setLineStatus(UNKNOWN, "active"))).toBe("unknown-number");
  });

  it("takes only ten digits", async () => {
    await expect(bss.findLine("55 1111 2222")).rejects.toThrow(TypeError);
  });
});

describe("applying a top-up", () => {
  it("adds the data and the days after the vigencia in force", async () => {
    const number = await activate();
    clock = new Date(START.getTime() + 10 * DAY);
    const { reference } = await topup("topup-1", number, 100);
    expect(reference).toMatch(/^SIM-[0-9A-F]{16}$/);
    const line = await bss.findLine(number);
    expect(line?.package).toEqual({
      offerId: "conecta-200",
      name: "Conecta 200",
      startsAt: iso(0),
      endsAt: iso(45),
    });
    expect(line?.balances.dataMb).toEqual({ remaining: 10240 + 3072, total: 13312 });
  });

  it("applies once per top-up id: a repeat, even concurrent, answers the first reference", async () => {
    const number = await activate();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => topup("topup-2", number, 50)));
    expect(new Set(answers.map((answer) => answer.reference)).size).toBe(1);
    expect(await topup("topup-2", number, 50)).toEqual(answers[0]);
    const line = await bss.findLine(number);
    expect(line?.balances.dataMb).toEqual({ remaining: 10240 + 1024, total: 11264 });
    expect(line?.package?.endsAt).toBe(iso(37));
    expect(await db.selectFrom("bss_sim_packages").select("position").execute()).toHaveLength(2);
  });

  it("refuses a top-up id reused for another line or amount", async () => {
    const number = await activate();
    await topup("topup-3", number, 50);
    expect(await refusal(topup("topup-3", number, 100))).toBe("reference-reused");
  });

  it("refuses an unknown number, an amount not on sale, a mismatched offer, a suspended line", async () => {
    expect(await refusal(topup("topup-4", UNKNOWN, 100))).toBe("unknown-number");
    const number = await activate();
    expect(
      await refusal(
        bss.applyTopup({ topupId: "topup-5", number, amount: 80, offerId: "conecta-local-80" }),
      ),
    ).toBe("unknown-offer");
    expect(
      await refusal(
        bss.applyTopup({ topupId: "topup-6", number, amount: 100, offerId: "conecta-200" }),
      ),
    ).toBe("unknown-offer");
    await bss.setLineStatus(number, "suspended");
    expect(await refusal(topup("topup-7", number, 100))).toBe("line-not-active");
    expect((await bss.findLine(number))?.status).toBe("suspended");
    // Refused top-ups were not kept: applied later, on an active line, they go through.
    await bss.setLineStatus(number, "active");
    await topup("topup-7", number, 100);
    expect((await bss.findLine(number))?.balances.dataMb?.total).toBe(10240 + 3072);
    expect(await db.selectFrom("bss_sim_topups").select("topup_id").execute()).toHaveLength(1);
  });

  it("starts a new package after the vigencia ended, with the unused data credited", async () => {
    const number = await activate(1, "conecta-50");
    await bss.recordUsage(number, { dataMb: 1000 });
    clock = new Date(START.getTime() + 20 * DAY);
    expect((await bss.findLine(number))?.package).toBeNull();
    await topup("topup-8", number, 100);
    const line = await bss.findLine(number);
    expect(line?.package).toMatchObject({
      offerId: "conecta-100",
      startsAt: iso(20),
      endsAt: iso(35),
    });
    expect(line?.balances.dataMb).toEqual({ remaining: 3072 + 24, total: 3096 });
  });
});

describe("recording usage", () => {
  it("drives the balance down and shows by day", async () => {
    const number = await activate(1, "conecta-local-80");
    expect(await bss.recordUsage(number, { dataMb: 500, minutes: 30, sms: 4 })).toEqual({
      dataMb: 500,
      minutes: 30,
      sms: 4,
      socialDataMb: 0,
    });
    await bss.recordUsage(number, { dataMb: 100, day: "2026-03-08" });
    await bss.recordUsage(number, { dataMb: 20, day: "2026-03-08" });
    expect((await bss.findLine(number))?.balances).toMatchObject({
      dataMb: { remaining: 2048 - 620, total: 2048 },
      minutes: { remaining: 970, total: 1000 },
      sms: { remaining: 496, total: 500 },
    });
    expect(await bss.usageByDay(number, "2026-03-07", "2026-03-10")).toEqual([
      { day: "2026-03-07", dataMb: 0, minutes: 0, sms: 0 },
      { day: "2026-03-08", dataMb: 120, minutes: 0, sms: 0 },
      { day: "2026-03-09", dataMb: 0, minutes: 0, sms: 0 },
      { day: "2026-03-10", dataMb: 500, minutes: 30, sms: 4 },
    ]);
  });

  it("lets through no more data than is left", async () => {
    const number = await activate(1, "conecta-50");
    expect((await bss.recordUsage(number, { dataMb: 5000 })).dataMb).toBe(1024);
    expect((await bss.findLine(number))?.balances.dataMb).toEqual({ remaining: 0, total: 1024 });
    expect((await bss.usageByDay(number, "2026-03-10", "2026-03-10"))[0].dataMb).toBe(1024);
  });

  it("refuses amounts that cannot have happened and changes nothing", async () => {
    const number = await activate();
    for (const usage of [
      { dataMb: -500 },
      { dataMb: Number.NaN },
      { dataMb: Number.POSITIVE_INFINITY },
      { dataMb: 2 * 1024 * 1024 },
      { minutes: 2000 },
      {},
    ]) {
      const error = await bss.recordUsage(number, usage).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isInvalidUsage(error), JSON.stringify(usage)).toBe(true);
    }
    await bss.recordUsage(number, { minutes: 1400 });
    const error = (await bss.recordUsage(number, { minutes: 41 }).catch((failure) => failure)) as
      InvalidUsage | undefined;
    expect(error).toMatchObject({ name: "InvalidUsage", field: "minutes", reason: "too-large" });
    expect((await bss.usageByDay(number, "2026-03-10", "2026-03-10"))[0].minutes).toBe(1400);
    expect((await bss.findLine(number))?.balances.dataMb?.remaining).toBe(10240);
  });

  it("refuses an unknown number and a suspended line", async () => {
    expect(await refusal(bss.recordUsage(UNKNOWN, { dataMb: 1 }))).toBe("unknown-number");
    const number = await activate();
    await bss.setLineStatus(number, "suspended");
    expect(await refusal(bss.recordUsage(number, { dataMb: 1 }))).toBe("line-not-active");
    expect(await refusal(bss.usageByDay(UNKNOWN, "2026-03-01", "2026-03-10"))).toBe(
      "unknown-number",
    );
  });

  it("keeps every balance at its grants minus the recorded usage", async () => {
    const numbers = [await activate(1, "conecta-100"), await activate(2, "conecta-300")];
    const grants = new Map([
      [numbers[0], 3072],
      [numbers[1], 20480],
    ]);
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round++) {
      for (const number of numbers) {
        work.push(bss.recordUsage(number, { dataMb: 37 * (round + 1) }));
        work.push(topup(`topup-${number}-${round}`, number, round % 2 === 0 ? 50 : 20));
      }
    }
    await Promise.all(work);
    for (const number of numbers) {
      const topups = await db
        .selectFrom("bss_sim_topups")
        .select("amount")
        .where("number", "=", number)
        .execute();
      const granted =
        (grants.get(number) ?? 0) +
        topups.reduce((sum, row) => sum + (topupOffer(Number(row.amount))?.dataMb ?? 0), 0);
      const used = (await bss.usageByDay(number, "2026-03-10", "2026-03-10"))[0].dataMb;
      expect(topups).toHaveLength(6);
      expect((await bss.findLine(number))?.balances.dataMb).toEqual({
        remaining: granted - used,
        total: granted,
      });
    }
  });
});

describe("a line without a registration (decision 0100)", () => {
  /** Of the test range of lines suspended for want of a registration. */
  const UNREGISTERED = "9900030001";

  it("answers its test range as unregistered: a top-up applies, usage is refused", async () => {
    expect((await bss.findLine(UNREGISTERED))?.status).toBe("unregistered");
    await topup("topup-u1", UNREGISTERED, 200);
    const line = await bss.findLine(UNREGISTERED);
    expect(line?.status).toBe("unregistered");
    expect(line?.package?.offerId).toBe("conecta-200");
    expect(await refusal(bss.recordUsage(UNREGISTERED, { dataMb: 10 }))).toBe("line-not-active");
  });

  it("lifts the suspension with a folio, once and for all", async () => {
    await bss.recordRegistration({ number: UNREGISTERED, folio: "VIN-2026-000001" });
    expect((await bss.findLine(UNREGISTERED))?.status).toBe("active");
    await bss.recordRegistration({ number: UNREGISTERED, folio: "VIN-2026-000001" });
    expect((await bss.findLine(UNREGISTERED))?.status).toBe("active");
    expect(await bss.recordUsage(UNREGISTERED, { minutes: 1 })).toMatchObject({ minutes: 0 });
  });

  it("suspends an active line found without one; lines it activates stay active", async () => {
    const number = await activate();
    expect((await bss.findLine(number))?.status).toBe("active");
    await bss.recordRegistration({ number, folio: null });
    expect((await bss.findLine(number))?.status).toBe("unregistered");
    await bss.recordRegistration({ number, folio: null });
    expect((await bss.findLine(number))?.status).toBe("unregistered");
    await bss.recordRegistration({ number, folio: "VIN-2026-000002" });
    expect((await bss.findLine(number))?.status).toBe("active");
  });

  it("changes no other status, and refuses a number it does not know", async () => {
    await bss.recordRegistration({ number: SUSPENDED, folio: "VIN-2026-000003" });
    expect((await bss.findLine(SUSPENDED))?.status).toBe("suspended");
    await bss.recordRegistration({ number: SUSPENDED, folio: null });
    expect((await bss.findLine(SUSPENDED))?.status).toBe("suspended");
    expect(
      await refusal(bss.recordRegistration({ number: UNKNOWN, folio: "VIN-2026-000004" })),
    ).toBe("unknown-number");
  });
});
