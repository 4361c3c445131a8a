import { formatFolio, normaliseFolio } from "~/db/folio";
import type { HolderKind } from "./holder";

/**
 * The rule of the line registration, as the code and the help centre's article both read it: the
 * Lineamientos para la identificación de líneas telefónicas móviles of the Comisión Reguladora de
 * Telecomunicaciones (DOF, 9 December 2025). Dates are Mexico City calendar days (YYYY-MM-DD).
 */
export const REGISTRATION_RULES = {
  /** Published in the Diario Oficial, in force the same day. */
  publishedOn: "2025-12-09",
  /** Every line is registered to its holder from this day: a new line when it is contracted. */
  requiredFrom: "2026-01-09",
  /** The last day for a line already in use. */
  deadline: "2026-06-30",
  /** From this day a line without a registered holder is suspended. */
  suspensionFrom: "2026-07-01",
  /**
   * Lines one persona física may hold (article 10); the limit does not apply to a persona moral
   * (nor to a persona física con actividad empresarial, who proves it with a constancia de
   * situación fiscal in a store).
   */
  maxLinesPerPerson: 10,
  /** Emergency and citizen-service numbers a suspended line still reaches, besides its operator. */
  reachableWhileSuspended: ["911", "074", "079", "088", "089"],
  /** Failed online validations of one number after which the holder must go to a store. */
  onlineAttempts: 3,
  onlineAttemptsWindowHours: 24,
} as const;

/**
 * What the operator keeps of a registration, and nothing more: no image of the ID, no selfie. The
 * Spanish label of each is `registration:kept.<name>`.
 */
export const KEPT_REGISTRATION_DATA = [
  /** Full name as on the ID, or the razón social. */
  "holderName",
  /** CURP (a foreigner without one: passport number and nationality), or RFC. */
  "holderKey",
  "phoneNumber",
  "identificationType",
  /** The result of the identity validation and the source it was made against. */
  "validationResult",
  /** The folio of the link, with its date and time. */
  "folio",
] as const;
export type KeptRegistrationData = (typeof KEPT_REGISTRATION_DATA)[number];

/** How many lines a holder of this kind may have; null where there is no limit. */
export function lineLimitFor(kind: HolderKind): number | null {
  return kind === "moral" ? null : REGISTRATION_RULES.maxLinesPerPerson;
}

/** Whether, on `today` (Mexico City, YYYY-MM-DD), a line without a holder is suspended. */
export function suspendsUnregisteredLines(today: string): boolean {
  return today >= REGISTRATION_RULES.suspensionFrom;
}

/**
 * How many online validations a number has left, given when its failed ones happened (ISO
 * instants): three failures within 24 hours end the online path until the oldest of them ages out.
 */
export function onlineAttemptsLeft(failedAt: readonly string[], now: Date): number {
  const windowStart = now.getTime() - REGISTRATION_RULES.onlineAttemptsWindowHours * 3_600_000;
  const recent = failedAt.filter((instant) => {
    const time = Date.parse(instant);
    return time > windowStart && time <= now.getTime();
  }).length;
  return Math.max(REGISTRATION_RULES.onlineAttempts - recent, 0);
}

/** The folio series of a registration: "VIN-2026-000123" (vinculación). */
export const REGISTRATION_FOLIO_SERIES = "VIN";
const REGISTRATION_FOLIO = /^VIN-(\d{4})-(\d{6})$/;

export function formatRegistrationFolio(year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999) {
    throw new RangeError(`A registration folio's number is 1–999999, not ${sequence}`);
  }
  return formatFolio(REGISTRATION_FOLIO_SERIES, year, sequence);
}

/** " vin-2026-000123" → { folio: "VIN-2026-000123", year: 2026, sequence: 123 }, or null. */
export function parseRegistrationFolio(
  value: string,
): { folio: string; year: number; sequence: number } | null {
  const folio = normaliseFolio(value);
  const match = REGISTRATION_FOLIO.exec(folio);
  if (!match || Number(match[2]) === 0) return null;
  return { folio, year: Number(match[1]), sequence: Number(match[2]) };
}
