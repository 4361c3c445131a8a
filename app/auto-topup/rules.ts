import type { AutoTopupTrigger } from "~/db/schema";
import type { Line } from "~/line/line";
import { mexicoCityDayStart, todayInMexico } from "~/lib/mexico-city-days";

/**
 * The rules of an automatic top-up (decision 0120), plain TypeScript shared by the scheduler,
 * the pages and the tests: when a line is due a charge, which period that charge belongs to,
 * and the monthly cap. No clock here: `now` is always given.
 *
 * A period is one package of the line ("paquete:<end of the vigencia>"), or one Mexico City day
 * without a package in force ("sin-paquete:<YYYY-MM-DD>"). A line is charged at most once per
 * period, whatever the trigger: a charge applied to the line buys a package that moves the end of
 * its vigencia, which starts the next period.
 */

/** What the customer chooses on the form: at the package's end, or below one of these. */
export const LOW_DATA_THRESHOLDS_MB = [512, 1024, 2048] as const;
export type LowDataThreshold = (typeof LOW_DATA_THRESHOLDS_MB)[number];

/** The monthly caps on offer: at most this many automatic charges in a calendar month. */
export const MONTHLY_MAX_CHOICES = [1, 2, 3, 4] as const;

/** The e-mail before a charge at the package's end goes this long before it. */
export const NOTICE_HOURS_BEFORE_END = 24;
/**
 * The charge at the package's end is made this long before it: the package bought then starts
 * when the one in force ends (tarifas.md), so the line never goes without service.
 */
export const CHARGE_MINUTES_BEFORE_END = 60;
/** Declined charges in a row that stop an automatic top-up. */
export const MAX_FAILED_CHARGES = 2;

const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export interface AutoTopupRule {
  trigger: AutoTopupTrigger;
  /** low_data: below this many megabytes of the package's data. */
  thresholdMb: number | null;
}

/** The period the line is in now. */
export function currentPeriod(line: Pick<Line, "package">, now: Date): string {
  const pkg = line.package;
  if (pkg && Date.parse(pkg.endsAt) > now.getTime()) return `paquete:${pkg.endsAt}`;
  return `sin-paquete:${todayInMexico(now)}`;
}

export type AutoTopupDecision =
  /** Nothing to do now. */
  | { kind: "none" }
  /** The package ends within a day: tell the customer now, charge at `chargeAt`. */
  | { kind: "notice"; period: string; chargeAt: Date }
  /** Charge now (the customer is told just before). */
  | { kind: "charge"; period: string };

/**
 * What the line calls for now. A line not active (suspended, being ported, dada de baja) calls
 * for nothing: a top-up would not reach its service. A line without a package in force is due at
 * once, whatever the trigger (its package has ended, and it has no data left).
 */
export function decide(rule: AutoTopupRule, line: Line, now: Date): AutoTopupDecision {
  if (line.status !== "active") return { kind: "none" };
  const period = currentPeriod(line, now);
  const pkg = line.package;
  if (!pkg || Date.parse(pkg.endsAt) <= now.getTime()) return { kind: "charge", period };
  if (rule.trigger === "low_data") {
    const data = line.balances.dataMb;
    const left = data ? data.remaining : 0;
    return left < (rule.thresholdMb ?? 0) ? { kind: "charge", period } : { kind: "none" };
  }
  const end = Date.parse(pkg.endsAt);
  const chargeAt = new Date(end - CHARGE_MINUTES_BEFORE_END * MINUTE_MS);
  if (now.getTime() >= chargeAt.getTime()) return { kind: "charge", period };
  if (now.getTime() >= end - NOTICE_HOURS_BEFORE_END * HOUR_MS) {
    return { kind: "notice", period, chargeAt };
  }
  return { kind: "none" };
}

/** The calendar month (Mexico City) of `now`: its first instant and the next month's. */
export function mexicoCityMonth(now: Date): { month: string; from: string; to: string } {
  const today = todayInMexico(now);
  const month = today.slice(0, 7);
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const next =
    monthNumber === 12
      ? `${year + 1}-01-01`
      : `${year}-${String(monthNumber + 1).padStart(2, "0")}-01`;
  return { month, from: mexicoCityDayStart(`${month}-01`), to: mexicoCityDayStart(next) };
}

/** Whether one more charge fits under the cap, given the charges made this month. */
export function underMonthlyCap(monthlyMax: number, chargedThisMonth: number): boolean {
  return chargedThisMonth < monthlyMax;
}

/** The form's trigger choice: "vence", or "datos-<MB>". */
export type TriggerChoice = "vence" | `datos-${LowDataThreshold}`;

export const TRIGGER_CHOICES: readonly TriggerChoice[] = [
  "vence",
  ...LOW_DATA_THRESHOLDS_MB.map((mb) => `datos-${mb}` as const),
];

export function ruleOfChoice(choice: TriggerChoice): AutoTopupRule {
  if (choice === "vence") return { trigger: "expiry", thresholdMb: null };
  return { trigger: "low_data", thresholdMb: Number(choice.slice("datos-".length)) };
}

export function choiceOfRule(rule: AutoTopupRule): TriggerChoice {
  if (rule.trigger === "expiry") return "vence";
  const mb = LOW_DATA_THRESHOLDS_MB.find((threshold) => threshold === rule.thresholdMb) ?? 1024;
  return `datos-${mb}`;
}
