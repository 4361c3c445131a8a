import { PLAN_CATALOGUE } from "~/catalog/plans.data";
import { FAIR_USE, NUMBER_KEPT_MONTHS } from "~/catalog/terms";
import { addDays } from "~/lib/dates";
import { addDaysToDate, isIsoDate, todayInMexico } from "~/lib/mexico-city-days";
import { findTopupAmount, MB_PER_GB } from "~/topup/amounts";

/**
 * The customer's line as the operator's BSS knows it: its number, status, the package in force
 * and what is left of it. Plain TypeScript shared by the server and the server build; no labels
 * here (the pages translate statuses and offers).
 */

/**
 * activa, suspendida, suspendida: sin registro (no holder registered to it, issue 27: it reaches
 * only emergency numbers and the operator; a top-up to it is applied, usage is not), portando (a
 * port-in or an activation under way), dada de baja.
 */
export type LineStatus = "active" | "suspended" | "unregistered" | "porting" | "terminated";

export const LINE_STATUSES: readonly LineStatus[] = [
  "active",
  "suspended",
  "unregistered",
  "porting",
  "terminated",
];

/** Statuses a paid top-up is applied in: an unregistered line keeps its package for when it is registered. */
export function takesTopups(status: LineStatus): boolean {
  return status === "active" || status === "unregistered";
}

export function isLineStatus(value: unknown): value is LineStatus {
  return typeof value === "string" && (LINE_STATUSES as readonly string[]).includes(value);
}

/** What is left of an allowance: megabytes, minutes or messages. */
export interface Quota {
  remaining: number;
  total: number;
}

export interface LineBalances {
  /** Saldo in pesos (a real BSS may give cents). */
  moneyMxn: number;
  /** null: no package in force. */
  dataMb: Quota | null;
  /**
   * The package's unlimited social networks: "unlimited" until the fair-use figure
   * (FAIR_USE.socialGb) is used up, then a spent Quota of that figure (they slow down). null: the
   * package has none.
   */
  socialDataMb: Quota | "unlimited" | null;
  /** "unlimited" until FAIR_USE.minutes are used in the package, then a spent Quota of them. */
  minutes: Quota | "unlimited" | null;
  /** As minutes, with FAIR_USE.sms. */
  sms: Quota | "unlimited" | null;
}

/**
 * The package in force (ISO-8601 instants). `endsAt` is when the line's vigencia ends: the end of
 * this package, or of the last one bought ahead of it (a top-up before the end starts when the
 * package in force ends, as content/legal/tarifas.md says).
 */
export interface LinePackage {
  offerId: string;
  name: string;
  startsAt: string;
  endsAt: string;
}

export interface Line {
  /** Ten digits, no country code. */
  number: string;
  status: LineStatus;
  package: LinePackage | null;
  balances: LineBalances;
}

/** One Mexico City day of a line's usage. */
export interface DailyUsage {
  /** YYYY-MM-DD in America/Mexico_City. */
  day: string;
  dataMb: number;
  minutes: number;
  sms: number;
}

const LINE_NUMBER = /^\d{10}$/;

/** Ten digits, as every Mexican number is dialled since 2020 (no country code). */
export function isLineNumber(value: unknown): value is string {
  return typeof value === "string" && LINE_NUMBER.test(value);
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days of usage a line page shows, and how far back usage may be recorded on a simulated line. */
export const USAGE_HISTORY_DAYS = 30;

/** The days [today − (days − 1), today] in Mexico City, oldest first. */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = todayInMexico(now);
  return { from: addDaysToDate(to, -(days - 1)), to };
}

/** Every day from `from` to `to` (YYYY-MM-DD, both included), oldest first. */
export function daysBetween(from: string, to: string): string[] {
  if (!isIsoDate(from) || !isIsoDate(to)) throw new RangeError("days are written YYYY-MM-DD");
  // UTC midnights a day apart: every line page lists 30 days, checked once rather than per day.
  const days: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let instant = Date.parse(`${from}T00:00:00Z`); instant <= last; instant += DAY_MS) {
    days.push(new Date(instant).toISOString().slice(0, 10));
  }
  return days;
}

/** Usage is asked for at most this many days at once. */
export const MAX_USAGE_RANGE_DAYS = 366;

/** Throws a RangeError unless [from, to] are days YYYY-MM-DD, in order, at most a year apart. */
export function assertDayRange(from: string, to: string): void {
  if (!isIsoDate(from) || !isIsoDate(to) || from > to) {
    throw new RangeError("usage is asked for days YYYY-MM-DD, the first not after the last");
  }
  if (addDaysToDate(from, MAX_USAGE_RANGE_DAYS) <= to) {
    throw new RangeError(`usage is asked for at most ${MAX_USAGE_RANGE_DAYS} days`);
  }
}

/** A day-by-day series with a zero for every day that had no usage. */
export function fillDays(from: string, to: string, usage: readonly DailyUsage[]): DailyUsage[] {
  const byDay = new Map(usage.map((entry) => [entry.day, entry]));
  return daysBetween(from, to).map(
    (day) => byDay.get(day) ?? { day, dataMb: 0, minutes: 0, sms: 0 },
  );
}

// ---------------------------------------------------------------------------------------------
// Running out
// ---------------------------------------------------------------------------------------------

/** A line runs out at ≤ 10 % of its data left, or with its vigencia ending within 2 days. */
export const RUNNING_OUT = { dataShare: 0.1, daysLeft: 2 } as const;

/**
 * Why a line needs a top-up soon, most pressing first: no package in force, little data left,
 * or its vigencia about to end. null: it does not (or it is not active, which says more: an
 * unregistered line needs its registration first, and a top-up alone would not bring it back).
 */
export type RunningOutReason = "no-package" | "data" | "ending";

export function runningOut(line: Line, now: Date = new Date()): RunningOutReason | null {
  if (line.status !== "active") return null;
  const pkg = line.package;
  if (!pkg || Date.parse(pkg.endsAt) <= now.getTime()) return "no-package";
  const data = line.balances.dataMb;
  if (data && data.total > 0 && data.remaining <= data.total * RUNNING_OUT.dataShare) {
    return "data";
  }
  if (Date.parse(pkg.endsAt) <= Date.parse(addDays(now.toISOString(), RUNNING_OUT.daysLeft))) {
    return "ending";
  }
  return null;
}

/** Whole days from `now` to the end of the vigencia, rounded up; 0 once it has ended. */
export function daysLeft(pkg: LinePackage, now: Date = new Date()): number {
  const left = Date.parse(pkg.endsAt) - now.getTime();
  return left <= 0 ? 0 : Math.ceil(left / DAY_MS);
}

// ---------------------------------------------------------------------------------------------
// Offers: what a top-up or an activation puts on a line, from the catalogue
// ---------------------------------------------------------------------------------------------

/** A number of minutes or messages, or unlimited within fair use. 0: the offer has none. */
export type Allowance = number | "unlimited";

export interface PackageOffer {
  /** A plan's id, or "recarga-<amount>" for a small bundle of its own. */
  offerId: string;
  name: string;
  validityDays: number;
  dataMb: number;
  minutes: Allowance;
  sms: Allowance;
  unlimitedSocial: boolean;
}

const BUNDLE_PREFIX = "recarga-";

/** A plan of the catalogue as a package: its benefits for its validity. */
export function planOffer(planId: string): PackageOffer | null {
  const plan = PLAN_CATALOGUE.find((candidate) => candidate.id === planId);
  if (!plan) return null;
  return {
    offerId: plan.id,
    name: plan.name,
    validityDays: plan.validityDays,
    dataMb: plan.dataGb * MB_PER_GB,
    minutes: plan.minutes ?? "unlimited",
    sms: plan.sms ?? "unlimited",
    unlimitedSocial: plan.unlimitedSocial,
  };
}

/**
 * What a top-up of `amount` pesos buys (~/topup/amounts.ts): a plan's price buys that plan; a
 * small amount its bundle of data only. null: not an amount on offer.
 */
export function topupOffer(amount: number): PackageOffer | null {
  const offer = findTopupAmount(amount);
  if (!offer) return null;
  if (offer.planId) return planOffer(offer.planId);
  return {
    offerId: `${BUNDLE_PREFIX}${offer.amount}`,
    name: `Recarga ${offer.amount}`,
    validityDays: offer.validityDays,
    dataMb: offer.dataMb,
    minutes: 0,
    sms: 0,
    unlimitedSocial: offer.unlimitedSocial,
  };
}

// ---------------------------------------------------------------------------------------------
// Packages on a line: applying an offer, consuming, and the balances that follow
// ---------------------------------------------------------------------------------------------

/**
 * One package bought for a line, and what was used of its own allowances. Packages bought before
 * the one in force ended follow it back to back.
 */
export interface BoughtPackage {
  offerId: string;
  name: string;
  startsAt: string;
  endsAt: string;
  minutes: Allowance;
  sms: Allowance;
  unlimitedSocial: boolean;
  minutesUsed: number;
  smsUsed: number;
  socialUsedMb: number;
}

/** The line's data: what every package since the last lapse granted, and what was used of it. */
export interface DataPool {
  totalMb: number;
  usedMb: number;
}

export interface LineAllowances {
  /** Oldest first. */
  packages: readonly BoughtPackage[];
  data: DataPool;
}

function lastEnd(packages: readonly BoughtPackage[]): string | null {
  let end: string | null = null;
  for (const pkg of packages) if (end === null || pkg.endsAt > end) end = pkg.endsAt;
  return end;
}

/** The package whose days include `now`, or null. */
export function packageInForce(
  packages: readonly BoughtPackage[],
  now: Date = new Date(),
): BoughtPackage | null {
  const at = now.getTime();
  return (
    packages.find((pkg) => Date.parse(pkg.startsAt) <= at && at < Date.parse(pkg.endsAt)) ?? null
  );
}

function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
}

/**
 * A package bought now, as content/legal/tarifas.md says ("Vigencia y recargas anticipadas"):
 * - before the vigencia ends, its data adds to what is left and its days start when the last
 *   package bought ends;
 * - after it ended, it starts now; the data left unused is credited to it when it is bought
 *   within NUMBER_KEPT_MONTHS of the end, and lost after that.
 */
export function applyPackage(
  current: LineAllowances,
  offer: PackageOffer,
  now: Date = new Date(),
): { package: BoughtPackage; data: DataPool } {
  const end = lastEnd(current.packages);
  const nowIso = now.toISOString();
  const inForce = end !== null && Date.parse(end) > now.getTime();
  const startsAt = inForce ? end : nowIso;
  const bought: BoughtPackage = {
    offerId: offer.offerId,
    name: offer.name,
    startsAt,
    endsAt: addDays(startsAt, offer.validityDays),
    minutes: offer.minutes,
    sms: offer.sms,
    unlimitedSocial: offer.unlimitedSocial,
    minutesUsed: 0,
    smsUsed: 0,
    socialUsedMb: 0,
  };
  if (inForce) {
    return {
      package: bought,
      data: { totalMb: current.data.totalMb + offer.dataMb, usedMb: current.data.usedMb },
    };
  }
  const unused = Math.max(0, current.data.totalMb - current.data.usedMb);
  const credited =
    end !== null && now.getTime() < Date.parse(addMonths(end, NUMBER_KEPT_MONTHS)) ? unused : 0;
  return { package: bought, data: { totalMb: offer.dataMb + credited, usedMb: 0 } };
}

function allowanceBalance(
  allowance: Allowance,
  used: number,
  fairUse: number,
): Quota | "unlimited" | null {
  if (allowance === "unlimited") {
    return used < fairUse ? "unlimited" : { remaining: 0, total: fairUse };
  }
  if (allowance <= 0) return null;
  return { remaining: Math.max(0, allowance - used), total: allowance };
}

const SOCIAL_FAIR_USE_MB = FAIR_USE.socialGb * MB_PER_GB;

/** The package in force (`endsAt` the line's vigencia) and its balances, at `now`. */
export function lineState(
  allowances: LineAllowances,
  moneyMxn: number,
  now: Date = new Date(),
): { package: LinePackage | null; balances: LineBalances } {
  const pkg = packageInForce(allowances.packages, now);
  if (!pkg) {
    return {
      package: null,
      balances: { moneyMxn, dataMb: null, socialDataMb: null, minutes: null, sms: null },
    };
  }
  const { totalMb, usedMb } = allowances.data;
  return {
    package: {
      offerId: pkg.offerId,
      name: pkg.name,
      startsAt: pkg.startsAt,
      endsAt: lastEnd(allowances.packages) ?? pkg.endsAt,
    },
    balances: {
      moneyMxn,
      dataMb: { remaining: Math.max(0, totalMb - usedMb), total: totalMb },
      socialDataMb: pkg.unlimitedSocial
        ? allowanceBalance("unlimited", pkg.socialUsedMb, SOCIAL_FAIR_USE_MB)
        : null,
      minutes: allowanceBalance(pkg.minutes, pkg.minutesUsed, FAIR_USE.minutes),
      sms: allowanceBalance(pkg.sms, pkg.smsUsed, FAIR_USE.sms),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Usage recorded on a simulated line (`npm run ops -- consumo`)
// ---------------------------------------------------------------------------------------------

export interface UsageAmounts {
  dataMb: number;
  minutes: number;
  sms: number;
  /** Traffic of the package's unlimited social networks; plain data on a package without them. */
  socialDataMb: number;
}

/** Beyond these in one day, an amount is a typing mistake, not a phone's usage. */
export const USAGE_DAY_LIMITS: Readonly<UsageAmounts> = {
  dataMb: 1024 * 1024,
  minutes: 24 * 60,
  sms: 10_000,
  socialDataMb: 1024 * 1024,
};

export type InvalidUsageReason =
  | "not-a-number"
  | "negative"
  | "not-whole"
  | "too-large"
  | "empty"
  | "not-a-date"
  | "future"
  | "too-old";

/**
 * Usage that cannot have happened: negative, fractional (whole MB, minutes, messages), absurd
 * for a day (USAGE_DAY_LIMITS), nothing at all, or on a day that is not one of the last
 * USAGE_HISTORY_DAYS. Nothing is recorded. `field` names the amount at fault (null: all).
 */
export class InvalidUsage extends Error {
  readonly field: keyof UsageAmounts | "day" | null;
  readonly reason: InvalidUsageReason;

  constructor(field: keyof UsageAmounts | "day" | null, reason: InvalidUsageReason) {
    super(`Usage refused: ${field ?? "usage"} ${reason}`);
    this.name = "InvalidUsage";
    this.field = field;
    this.reason = reason;
  }
}

/** By name, not `instanceof`: server.ts and the server build each bundle their own class. */
export function isInvalidUsage(error: unknown): error is InvalidUsage {
  return error instanceof Error && error.name === "InvalidUsage";
}

const USAGE_FIELDS = ["dataMb", "minutes", "sms", "socialDataMb"] as const;

/**
 * The amounts as numbers (absent = 0) and the day (default today in Mexico City), or an
 * InvalidUsage. `sameDay` is what that day already has, so that the day's total stays sane.
 */
export function validateUsage(
  input: Partial<UsageAmounts> & { day?: string },
  now: Date = new Date(),
  sameDay: UsageAmounts = { dataMb: 0, minutes: 0, sms: 0, socialDataMb: 0 },
): { amounts: UsageAmounts; day: string } {
  const amounts = { dataMb: 0, minutes: 0, sms: 0, socialDataMb: 0 };
  for (const field of USAGE_FIELDS) {
    const value: unknown = input[field] ?? 0;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new InvalidUsage(field, "not-a-number");
    }
    if (value < 0) throw new InvalidUsage(field, "negative");
    if (!Number.isInteger(value)) throw new InvalidUsage(field, "not-whole");
    if (value + sameDay[field] > USAGE_DAY_LIMITS[field]) {
      throw new InvalidUsage(field, "too-large");
    }
    amounts[field] = value;
  }
  if (USAGE_FIELDS.every((field) => amounts[field] === 0)) throw new InvalidUsage(null, "empty");
  const today = todayInMexico(now);
  const day = input.day ?? today;
  if (typeof day !== "string" || !isIsoDate(day)) throw new InvalidUsage("day", "not-a-date");
  if (day > today) throw new InvalidUsage("day", "future");
  if (day < addDaysToDate(today, -(USAGE_HISTORY_DAYS - 1))) {
    throw new InvalidUsage("day", "too-old");
  }
  return { amounts, day };
}

/**
 * Consumes usage from the package in force, as the network would let it through: data up to
 * what is left (then browsing stops), finite minutes and messages up to theirs, unlimited ones
 * up to the fair-use figure (then the service is limited, content/legal/politica-de-uso-justo.md);
 * unlimited social traffic slows down but goes on. Without a package in force nothing goes
 * through. Answers what was consumed.
 */
export function consumeUsage(
  allowances: LineAllowances,
  usage: UsageAmounts,
  now: Date = new Date(),
): { consumed: UsageAmounts; package: BoughtPackage | null; data: DataPool } {
  const pkg = packageInForce(allowances.packages, now);
  const none = { dataMb: 0, minutes: 0, sms: 0, socialDataMb: 0 };
  if (!pkg) return { consumed: none, package: null, data: allowances.data };

  const socialFree = pkg.unlimitedSocial;
  const dataLeft = Math.max(0, allowances.data.totalMb - allowances.data.usedMb);
  const dataWanted = usage.dataMb + (socialFree ? 0 : usage.socialDataMb);
  const dataMb = Math.min(dataWanted, dataLeft);
  const limit = (allowance: Allowance, fairUse: number) =>
    allowance === "unlimited" ? fairUse : allowance;
  const minutes = Math.min(
    usage.minutes,
    Math.max(0, limit(pkg.minutes, FAIR_USE.minutes) - pkg.minutesUsed),
  );
  const sms = Math.min(usage.sms, Math.max(0, limit(pkg.sms, FAIR_USE.sms) - pkg.smsUsed));
  const socialDataMb = socialFree ? usage.socialDataMb : 0;

  return {
    consumed: { dataMb, minutes, sms, socialDataMb },
    package: {
      ...pkg,
      minutesUsed: pkg.minutesUsed + minutes,
      smsUsed: pkg.smsUsed + sms,
      socialUsedMb: pkg.socialUsedMb + socialDataMb,
    },
    data: { totalMb: allowances.data.totalMb, usedMb: allowances.data.usedMb + dataMb },
  };
}
