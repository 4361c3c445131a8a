import { daysLeft, type Line, type LineStatus, type Quota, runningOut } from "./line";
import type { RunningOutReason } from "./line";

/**
 * What the customer's pages show of a line, worked out on the server from what the BSS answered
 * and the request's clock: components format these figures (money, data, dates) and compute
 * nothing from a clock of their own.
 */

/** An allowance as shown: what is left of how much, unlimited, or none in the package. */
export type AllowanceView =
  { kind: "quota"; remaining: number; total: number } | { kind: "unlimited" } | null;

export interface DataView {
  remainingMb: number;
  totalMb: number;
  usedMb: number;
  /** Share of the total used, 0–100, whole: the bar's length. */
  usedPercent: number;
}

export interface LineSummary {
  number: string;
  status: LineStatus;
  moneyMxn: number;
  /** null: no package in force, so no data. */
  data: DataView | null;
  socialData: AllowanceView;
  minutes: AllowanceView;
  sms: AllowanceView;
  /** The package in force; `endsAt` is the line's vigencia. */
  package: { name: string; startsAt: string; endsAt: string; daysLeft: number } | null;
  /** Why it needs a top-up soon (line.ts runningOut); null when it does not. */
  runningOut: RunningOutReason | null;
}

function allowance(value: Quota | "unlimited" | null): AllowanceView {
  if (value === null) return null;
  if (value === "unlimited") return { kind: "unlimited" };
  return { kind: "quota", remaining: value.remaining, total: value.total };
}

/** The data as a bar: used of total, the used share rounded and kept within 0–100. */
export function dataView(quota: Quota): DataView {
  const total = Math.max(0, quota.total);
  const remaining = Math.min(Math.max(0, quota.remaining), total);
  const used = total - remaining;
  const usedPercent = total > 0 ? Math.min(100, Math.max(0, Math.round((used / total) * 100))) : 0;
  return { remainingMb: remaining, totalMb: total, usedMb: used, usedPercent };
}

/** The line as its pages show it at `now`. */
export function lineSummary(line: Line, now: Date): LineSummary {
  const { balances } = line;
  return {
    number: line.number,
    status: line.status,
    moneyMxn: balances.moneyMxn,
    data: balances.dataMb ? dataView(balances.dataMb) : null,
    socialData: allowance(balances.socialDataMb),
    minutes: allowance(balances.minutes),
    sms: allowance(balances.sms),
    package: line.package
      ? {
          name: line.package.name,
          startsAt: line.package.startsAt,
          endsAt: line.package.endsAt,
          daysLeft: daysLeft(line.package, now),
        }
      : null,
    runningOut: runningOut(line, now),
  };
}

/** "55 1234 5678": the ten digits grouped as Mexican numbers are read out. */
export function formatLineNumber(number: string): string {
  if (!/^\d{10}$/.test(number)) return number;
  return `${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`;
}

/**
 * The key of the package a running-out notice is about: the package in force and the end of the
 * line's vigencia. A top-up moves the end (line.ts applyPackage), so a line that runs out again
 * after one is told again; the same package seen again is not.
 */
export function noticePackageKey(pkg: NonNullable<Line["package"]>): string {
  return `${pkg.offerId}@${pkg.startsAt}/${pkg.endsAt}`;
}

/** A running-out reason worth an e-mail: a package in force with little data or few days left. */
export function isNoticeWorthy(reason: RunningOutReason | null): reason is "data" | "ending" {
  return reason === "data" || reason === "ending";
}
