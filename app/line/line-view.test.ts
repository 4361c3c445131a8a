import { describe, expect, it } from "vitest";
import type { Line } from "./line";
import {
  dataView,
  formatLineNumber,
  isNoticeWorthy,
  lineSummary,
  noticePackageKey,
} from "./line-view";

const NOW = new Date("2026-03-10T18:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;
const iso = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString();

const line: Line = {
  number: "5599000001",
  status: "active",
  package: { offerId: "conecta-200", name: "Conecta 200", startsAt: iso(-10), endsAt: iso(20) },
  balances: {
    moneyMxn: 12.5,
    dataMb: { remaining: 3072, total: 4096 },
    socialDataMb: "unlimited",
    minutes: "unlimited",
    sms: { remaining: 40, total: 100 },
  },
};

describe("the line as its pages show it", () => {
  it("shows data as used of total, with the bar's share", () => {
    expect(lineSummary(line, NOW).data).toEqual({
      remainingMb: 3072,
      totalMb: 4096,
      usedMb: 1024,
      usedPercent: 25,
    });
  });

  it("keeps the bar within 0–100 whatever the BSS says", () => {
    expect(dataView({ remaining: 5000, total: 4096 }).usedPercent).toBe(0);
    expect(dataView({ remaining: -10, total: 4096 }).usedPercent).toBe(100);
    expect(dataView({ remaining: 0, total: 0 })).toEqual({
      remainingMb: 0,
      totalMb: 0,
      usedMb: 0,
      usedPercent: 0,
    });
  });

  it("tells unlimited, finite and absent allowances apart", () => {
    const summary = lineSummary(
      { ...line, balances: { ...line.balances, socialDataMb: null } },
      NOW,
    );
    expect(summary.minutes).toEqual({ kind: "unlimited" });
    expect(summary.sms).toEqual({ kind: "quota", remaining: 40, total: 100 });
    expect(summary.socialData).toBeNull();
  });

  it("counts the vigencia's days left from the request's clock, not the component's", () => {
    expect(lineSummary(line, NOW).package).toEqual({
      name: "Conecta 200",
      startsAt: iso(-10),
      endsAt: iso(20),
      daysLeft: 20,
    });
    expect(lineSummary(line, new Date(NOW.getTime() + 19.5 * DAY)).package?.daysLeft).toBe(1);
  });

  it("says why a line needs a top-up: little data, or its vigencia ending within 2 days", () => {
    expect(lineSummary(line, NOW).runningOut).toBeNull();
    const low = {
      ...line,
      balances: { ...line.balances, dataMb: { remaining: 409, total: 4096 } },
    };
    expect(lineSummary(low, NOW).runningOut).toBe("data");
    const ending = { ...line, package: { ...line.package!, endsAt: iso(1.5) } };
    expect(lineSummary(ending, NOW).runningOut).toBe("ending");
    expect(lineSummary({ ...line, package: null }, NOW).runningOut).toBe("no-package");
    expect(lineSummary({ ...low, status: "suspended" }, NOW).runningOut).toBeNull();
  });

  it("e-mails about a package in force only, keyed by the package and the vigencia's end", () => {
    expect(isNoticeWorthy("data")).toBe(true);
    expect(isNoticeWorthy("ending")).toBe(true);
    expect(isNoticeWorthy("no-package")).toBe(false);
    expect(isNoticeWorthy(null)).toBe(false);
    const key = noticePackageKey(line.package!);
    expect(key).toBe(`conecta-200@${iso(-10)}/${iso(20)}`);
    // A top-up moves the vigencia's end: a new package to be told about.
    expect(noticePackageKey({ ...line.package!, endsAt: iso(50) })).not.toBe(key);
  });

  it("writes a number as it is read out", () => {
    expect(formatLineNumber("5512345678")).toBe("55 1234 5678");
    expect(formatLineNumber("12345")).toBe("12345");
  });
});
