import { describe, expect, it } from "vitest";
import { FAIR_USE } from "~/catalog/terms";
import {
  applyPackage,
  assertDayRange,
  consumeUsage,
  daysLeft,
  fillDays,
  InvalidUsage,
  isInvalidUsage,
  isLineNumber,
  lastDays,
  type Line,
  type LineAllowances,
  lineState,
  planOffer,
  LINE_STATUSES,
  runningOut,
  takesTopups,
  topupOffer,
  validateUsage,
} from "./line";

const NOW = new Date("2026-03-10T18:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);
const iso = (days: number) => at(days).toISOString();

function line(overrides: Partial<Line> & { remaining?: number; total?: number; endsIn?: number }) {
  const { remaining = 5000, total = 10240, endsIn = 20, ...rest } = overrides;
  const base: Line = {
    number: "5599000001",
    status: "active",
    package: {
      offerId: "conecta-200",
      name: "Conecta 200",
      startsAt: iso(-10),
      endsAt: iso(endsIn),
    },
    balances: {
      moneyMxn: 0,
      dataMb: { remaining, total },
      socialDataMb: "unlimited",
      minutes: "unlimited",
      sms: "unlimited",
    },
  };
  return { ...base, ...rest };
}

const empty: LineAllowances = { packages: [], data: { totalMb: 0, usedMb: 0 } };

function offer(amount: number) {
  const found = topupOffer(amount);
  if (!found) throw new Error(`no offer for ${amount}`);
  return found;
}

/** A line with one top-up of `amount` applied at `days` from NOW, and `usedMb` used of it. */
function lineWith(amount: number, days: number, usedMb = 0): LineAllowances {
  const applied = applyPackage(empty, offer(amount), at(days));
  return { packages: [applied.package], data: { ...applied.data, usedMb } };
}

describe("a line's number", () => {
  it("is ten digits", () => {
    expect(isLineNumber("5512345678")).toBe(true);
    expect(isLineNumber("551234567")).toBe(false);
    expect(isLineNumber("+525512345678")).toBe(false);
    expect(isLineNumber(5512345678)).toBe(false);
  });
});

describe("running out", () => {
  it("is 10 % of the data or less", () => {
    expect(runningOut(line({ remaining: 1024, total: 10240 }), NOW)).toBe("data");
    expect(runningOut(line({ remaining: 500, total: 10240 }), NOW)).toBe("data");
    expect(runningOut(line({ remaining: 1025, total: 10240 }), NOW)).toBeNull();
  });

  it("is a vigencia that ends within two days", () => {
    expect(runningOut(line({ endsIn: 2 }), NOW)).toBe("ending");
    expect(runningOut(line({ endsIn: 0.5 }), NOW)).toBe("ending");
    expect(runningOut(line({ endsIn: 2.01 }), NOW)).toBeNull();
  });

  it("is a line without a package in force", () => {
    expect(runningOut(line({ package: null }), NOW)).toBe("no-package");
    expect(runningOut(line({ endsIn: -1 }), NOW)).toBe("no-package");
  });

  it("is not said of a line that is not active", () => {
    expect(runningOut(line({ status: "suspended", remaining: 0 }), NOW)).toBeNull();
    expect(runningOut(line({ status: "terminated", package: null }), NOW)).toBeNull();
    // Suspended for want of a registration: the page asks for the registration, not a top-up.
    expect(runningOut(line({ status: "unregistered", package: null }), NOW)).toBeNull();
  });

  it("takes top-ups on an active line and on one without a registration only", () => {
    expect(LINE_STATUSES.filter(takesTopups)).toEqual(["active", "unregistered"]);
  });

  it("counts the days left, rounded up", () => {
    const pkg = line({ endsIn: 2.2 }).package!;
    expect(daysLeft(pkg, NOW)).toBe(3);
    expect(daysLeft(line({ endsIn: -1 }).package!, NOW)).toBe(0);
  });
});

describe("what a top-up buys", () => {
  it("is the plan at a plan's price, with its unlimited minutes and SMS", () => {
    expect(topupOffer(200)).toEqual({
      offerId: "conecta-200",
      name: "Conecta 200",
      validityDays: 30,
      dataMb: 10 * 1024,
      minutes: "unlimited",
      sms: "unlimited",
      unlimitedSocial: true,
    });
  });

  it("is a bundle of data only for a small amount", () => {
    expect(topupOffer(20)).toMatchObject({
      offerId: "recarga-20",
      validityDays: 1,
      dataMb: 200,
      minutes: 0,
      sms: 0,
      unlimitedSocial: false,
    });
  });

  it("is nothing for an amount not on offer", () => {
    expect(topupOffer(80)).toBeNull();
    expect(topupOffer(0)).toBeNull();
  });

  it("activates plans not sold as top-ups, with their own minutes", () => {
    expect(planOffer("conecta-local-80")).toMatchObject({ minutes: 1000, sms: 500 });
    expect(planOffer("no-such-plan")).toBeNull();
  });
});

describe("applying a package to a line", () => {
  it("starts a line's first package now, with its data", () => {
    const { package: pkg, data } = applyPackage(empty, offer(100), NOW);
    expect(pkg).toMatchObject({ offerId: "conecta-100", startsAt: iso(0), endsAt: iso(15) });
    expect(data).toEqual({ totalMb: 3 * 1024, usedMb: 0 });
  });

  it("adds the data to what is left and starts the days when the vigencia ends", () => {
    const before = lineWith(200, -10, 4000);
    const { package: next, data } = applyPackage(before, offer(100), NOW);
    expect(data).toEqual({ totalMb: 10240 + 3072, usedMb: 4000 });
    // content/legal/tarifas.md: "la nueva vigencia comienza al terminar la del plan vigente".
    expect(next.startsAt).toBe(iso(20));
    expect(next.endsAt).toBe(iso(35));

    const after = { packages: [...before.packages, next], data };
    const state = lineState(after, 0, NOW);
    expect(state.package).toMatchObject({ offerId: "conecta-200", endsAt: iso(35) });
    expect(state.balances.dataMb).toEqual({ remaining: 10240 + 3072 - 4000, total: 13312 });
    // Once the first ends, the one bought ahead is in force.
    expect(lineState(after, 0, at(21)).package).toMatchObject({
      offerId: "conecta-100",
      startsAt: iso(20),
      endsAt: iso(35),
    });
  });

  it("starts now after the vigencia ended, crediting the unused data", () => {
    const lapsed = lineWith(50, -30, 1000); // 7 days, ended 23 days ago with 24 MB unused
    const { package: pkg, data } = applyPackage(lapsed, offer(150), NOW);
    expect(pkg.startsAt).toBe(iso(0));
    expect(pkg.endsAt).toBe(iso(30));
    expect(data).toEqual({ totalMb: 5 * 1024 + 24, usedMb: 0 });
  });

  it("loses the unused data a year after the vigencia ended", () => {
    const lapsed = lineWith(200, -400, 0);
    expect(applyPackage(lapsed, offer(50), NOW).data).toEqual({ totalMb: 1024, usedMb: 0 });
  });
});

describe("a line's balances", () => {
  it("are empty without a package in force", () => {
    expect(lineState(lineWith(50, -8), 12, NOW)).toEqual({
      package: null,
      balances: { moneyMxn: 12, dataMb: null, socialDataMb: null, minutes: null, sms: null },
    });
  });

  it("show unlimited minutes, SMS and social networks until their fair-use figures", () => {
    const fresh = lineState(lineWith(200, -1), 0, NOW).balances;
    expect(fresh).toMatchObject({
      socialDataMb: "unlimited",
      minutes: "unlimited",
      sms: "unlimited",
    });

    const heavy = lineWith(200, -1);
    const used = {
      ...heavy,
      packages: [
        {
          ...heavy.packages[0],
          minutesUsed: FAIR_USE.minutes,
          smsUsed: FAIR_USE.sms - 1,
          socialUsedMb: FAIR_USE.socialGb * 1024,
        },
      ],
    };
    expect(lineState(used, 0, NOW).balances).toMatchObject({
      minutes: { remaining: 0, total: FAIR_USE.minutes },
      sms: "unlimited",
      socialDataMb: { remaining: 0, total: FAIR_USE.socialGb * 1024 },
    });
  });

  it("show a bundle's data and no minutes, SMS or social networks", () => {
    expect(lineState(lineWith(30, 0, 100), 0, NOW).balances).toEqual({
      moneyMxn: 0,
      dataMb: { remaining: 300, total: 400 },
      socialDataMb: null,
      minutes: null,
      sms: null,
    });
  });
});

describe("consuming usage", () => {
  const usage = { dataMb: 0, minutes: 0, sms: 0, socialDataMb: 0 };

  it("stops data at what is left", () => {
    const result = consumeUsage(lineWith(30, 0, 300), { ...usage, dataMb: 500 }, NOW);
    expect(result.consumed.dataMb).toBe(100);
    expect(result.data).toEqual({ totalMb: 400, usedMb: 400 });
  });

  it("counts social traffic as data only on a package without unlimited social networks", () => {
    const social = { ...usage, socialDataMb: 50 };
    expect(consumeUsage(lineWith(30, 0), social, NOW).consumed).toMatchObject({
      dataMb: 50,
      socialDataMb: 0,
    });
    const withSocial = consumeUsage(lineWith(200, 0), social, NOW);
    expect(withSocial.consumed).toMatchObject({ dataMb: 0, socialDataMb: 50 });
    expect(withSocial.package?.socialUsedMb).toBe(50);
  });

  it("stops finite minutes at the plan's and unlimited ones at the fair-use figure", () => {
    const local = applyPackage(empty, planOffer("conecta-local-80")!, NOW);
    const localLine = { packages: [local.package], data: local.data };
    expect(consumeUsage(localLine, { ...usage, minutes: 1200 }, NOW).consumed.minutes).toBe(1000);
    const unlimited = consumeUsage(lineWith(200, 0), { ...usage, minutes: 1440 }, NOW);
    expect(unlimited.consumed.minutes).toBe(1440);
    expect(unlimited.package?.minutesUsed).toBe(1440);
  });

  it("lets nothing through without a package in force", () => {
    const result = consumeUsage(lineWith(20, -5), { ...usage, dataMb: 10, minutes: 3 }, NOW);
    expect(result.consumed).toEqual(usage);
    expect(result.package).toBeNull();
  });
});

describe("recording usage", () => {
  function refusal(attempt: () => unknown): InvalidUsage {
    try {
      attempt();
    } catch (error) {
      expect(isInvalidUsage(error)).toBe(true);
      return error as InvalidUsage;
    }
    throw new Error("the usage was accepted");
  }

  it("accepts whole amounts for today or a recent day", () => {
    expect(validateUsage({ dataMb: 500 }, NOW)).toEqual({
      amounts: { dataMb: 500, minutes: 0, sms: 0, socialDataMb: 0 },
      day: "2026-03-10",
    });
    expect(validateUsage({ sms: 3, day: "2026-02-09" }, NOW).day).toBe("2026-02-09");
  });

  it.each([
    [{ dataMb: -1 }, "dataMb", "negative"],
    [{ minutes: Number.NaN }, "minutes", "not-a-number"],
    [{ sms: Number.POSITIVE_INFINITY }, "sms", "not-a-number"],
    [{ dataMb: "500" as unknown as number }, "dataMb", "not-a-number"],
    [{ dataMb: 1.5 }, "dataMb", "not-whole"],
    [{ dataMb: 1024 * 1024 + 1 }, "dataMb", "too-large"],
    [{ minutes: 24 * 60 + 1 }, "minutes", "too-large"],
    [{}, null, "empty"],
    [{ dataMb: 0, minutes: 0 }, null, "empty"],
    [{ dataMb: 1, day: "2026-03-11" }, "day", "future"],
    [{ dataMb: 1, day: "2026-02-08" }, "day", "too-old"],
    [{ dataMb: 1, day: "2026-02-30" }, "day", "not-a-date"],
  ])("refuses %j", (input, field, reason) => {
    expect(refusal(() => validateUsage(input, NOW))).toMatchObject({ field, reason });
  });

  it("refuses what would make the day's total absurd", () => {
    const sameDay = { dataMb: 0, minutes: 1400, sms: 0, socialDataMb: 0 };
    expect(refusal(() => validateUsage({ minutes: 41 }, NOW, sameDay))).toMatchObject({
      field: "minutes",
      reason: "too-large",
    });
    expect(validateUsage({ minutes: 40 }, NOW, sameDay).amounts.minutes).toBe(40);
  });
});

describe("usage by day", () => {
  it("is asked for days in order, at most a year", () => {
    expect(() => assertDayRange("2026-01-01", "2026-12-31")).not.toThrow();
    expect(() => assertDayRange("2026-03-02", "2026-03-01")).toThrow(RangeError);
    expect(() => assertDayRange("2025-01-01", "2026-01-02")).toThrow(RangeError);
    expect(() => assertDayRange("2026-3-1", "2026-03-10")).toThrow(RangeError);
  });

  it("covers the last 30 Mexico City days, with zeros where nothing was used", () => {
    // 01:00 UTC on 11 March is still 10 March in Mexico City.
    const range = lastDays(30, new Date("2026-03-11T01:00:00Z"));
    expect(range).toEqual({ from: "2026-02-09", to: "2026-03-10" });
    const series = fillDays(range.from, range.to, [
      { day: "2026-03-01", dataMb: 12, minutes: 3, sms: 1 },
    ]);
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: "2026-02-09", dataMb: 0, minutes: 0, sms: 0 });
    expect(series.find((entry) => entry.day === "2026-03-01")?.dataMb).toBe(12);
  });
});
