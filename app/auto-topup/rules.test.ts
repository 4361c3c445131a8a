import { describe, expect, it } from "vitest";
import type { Line } from "~/line/line";
import {
  choiceOfRule,
  currentPeriod,
  decide,
  mexicoCityMonth,
  ruleOfChoice,
  TRIGGER_CHOICES,
  underMonthlyCap,
} from "./rules";

const NOW = new Date("2026-11-25T18:00:00.000Z");
const HOUR = 60 * 60 * 1000;

function line(overrides: {
  endsIn?: number | null;
  dataLeftMb?: number;
  status?: Line["status"];
}): Line {
  const endsAt =
    overrides.endsIn === null
      ? null
      : new Date(NOW.getTime() + (overrides.endsIn ?? 10 * 24 * HOUR)).toISOString();
  return {
    number: "5512345678",
    status: overrides.status ?? "active",
    package: endsAt
      ? { offerId: "conecta-150", name: "Conecta 150", startsAt: NOW.toISOString(), endsAt }
      : null,
    balances: {
      moneyMxn: 0,
      dataMb: endsAt ? { remaining: overrides.dataLeftMb ?? 4096, total: 5120 } : null,
      socialDataMb: null,
      minutes: "unlimited",
      sms: "unlimited",
    },
  };
}

const atExpiry = { trigger: "expiry", thresholdMb: null } as const;
const belowOneGb = { trigger: "low_data", thresholdMb: 1024 } as const;

describe("when a line's automatic top-up is due", () => {
  it("at the package's end: a notice a day before, the charge an hour before it ends", () => {
    expect(decide(atExpiry, line({ endsIn: 30 * HOUR }), NOW)).toEqual({ kind: "none" });
    const notice = decide(atExpiry, line({ endsIn: 20 * HOUR }), NOW);
    expect(notice).toMatchObject({ kind: "notice" });
    const end = NOW.getTime() + 20 * HOUR;
    expect(notice.kind === "notice" && notice.chargeAt.getTime()).toBe(end - HOUR);
    expect(decide(atExpiry, line({ endsIn: 30 * 60 * 1000 }), NOW)).toMatchObject({
      kind: "charge",
    });
  });

  it("below the data asked for: charged at once, whatever the package's end", () => {
    expect(decide(belowOneGb, line({ dataLeftMb: 1500 }), NOW)).toEqual({ kind: "none" });
    expect(decide(belowOneGb, line({ dataLeftMb: 1023 }), NOW)).toMatchObject({
      kind: "charge",
    });
    // At the package's end but with data left: the low-data rule does not charge for the end.
    expect(decide(belowOneGb, line({ endsIn: 20 * HOUR, dataLeftMb: 3000 }), NOW)).toEqual({
      kind: "none",
    });
  });

  it("a line without a package is due at once under either rule", () => {
    for (const rule of [atExpiry, belowOneGb]) {
      expect(decide(rule, line({ endsIn: null }), NOW)).toMatchObject({ kind: "charge" });
    }
  });

  it("a line that is not active is never charged", () => {
    for (const status of ["suspended", "unregistered", "porting", "terminated"] as const) {
      expect(decide(belowOneGb, line({ endsIn: null, status }), NOW)).toEqual({ kind: "none" });
    }
  });

  it("one period per package, or per day without one", () => {
    const withPackage = line({ endsIn: 20 * HOUR });
    expect(currentPeriod(withPackage, NOW)).toBe(`paquete:${withPackage.package!.endsAt}`);
    // The charge and the notice of one package name the same period, under either rule.
    const notice = decide(atExpiry, withPackage, NOW);
    const charge = decide(belowOneGb, line({ endsIn: 20 * HOUR, dataLeftMb: 10 }), NOW);
    expect(notice.kind !== "none" && notice.period).toBe(charge.kind !== "none" && charge.period);
    // 18:00 UTC is noon in Mexico City: the day is Mexico City's.
    expect(currentPeriod(line({ endsIn: null }), NOW)).toBe("sin-paquete:2026-11-25");
    expect(currentPeriod(line({ endsIn: null }), new Date("2026-11-26T05:00:00Z"))).toBe(
      "sin-paquete:2026-11-25",
    );
  });
});

describe("the monthly cap", () => {
  it("counts the Mexico City month", () => {
    expect(mexicoCityMonth(NOW)).toEqual({
      month: "2026-11",
      from: "2026-11-01T06:00:00.000Z",
      to: "2026-12-01T06:00:00.000Z",
    });
    // 1 December 02:00 UTC is still 30 November in Mexico City.
    expect(mexicoCityMonth(new Date("2026-12-01T02:00:00Z")).month).toBe("2026-11");
    expect(mexicoCityMonth(new Date("2026-12-15T12:00:00Z"))).toMatchObject({
      month: "2026-12",
      to: "2027-01-01T06:00:00.000Z",
    });
  });

  it("allows charges up to the cap and none beyond", () => {
    expect(underMonthlyCap(2, 0)).toBe(true);
    expect(underMonthlyCap(2, 1)).toBe(true);
    expect(underMonthlyCap(2, 2)).toBe(false);
  });
});

describe("the form's choice of when", () => {
  it("reads back as the rule it sets", () => {
    for (const choice of TRIGGER_CHOICES) expect(choiceOfRule(ruleOfChoice(choice))).toBe(choice);
    expect(ruleOfChoice("datos-2048")).toEqual({ trigger: "low_data", thresholdMb: 2048 });
    expect(ruleOfChoice("vence")).toEqual({ trigger: "expiry", thresholdMb: null });
  });
});
