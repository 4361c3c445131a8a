/**
 * Calendar days as the operator reads them and a portability date is scheduled on: Mexico City
 * days (YYYY-MM-DD), whatever the server's zone. Stored times are UTC instants (ISO-8601), so a day is the range of instants from its
 * first moment in Mexico City to the next day's.
 */
export const OPS_TIME_ZONE = "America/Mexico_City";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// Made on first use: the first Intl object a page builds loads ICU's data (decision 0128).
let mexicoCityParts: Intl.DateTimeFormat | undefined;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: Date): WallClock {
  mexicoCityParts ??= new Intl.DateTimeFormat("en-US", {
    timeZone: OPS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const parts = Object.fromEntries(
    mexicoCityParts.formatToParts(instant).map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function requireIsoDate(value: string): [number, number, number] {
  if (!isIsoDate(value)) throw new RangeError(`Not a YYYY-MM-DD date: ${value}`);
  const [year, month, day] = value.split("-").map(Number);
  return [year, month, day];
}

/** The date `days` calendar days after `date` (both YYYY-MM-DD). */
export function addDaysToDate(date: string, days: number): string {
  const [year, month, day] = requireIsoDate(date);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The Mexico City calendar date of an instant (YYYY-MM-DD). */
export function mexicoCityDate(instant: Date | string): string {
  return dateOf(wallClock(new Date(instant)));
}

const dateOf = (clock: WallClock) => `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;

/** "2026-03-04 10:05" in Mexico City: sortable, and read as a date by a spreadsheet. */
export function mexicoCityDateTime(instant: Date | string): string {
  const clock = wallClock(new Date(instant));
  return `${dateOf(clock)} ${pad(clock.hour)}:${pad(clock.minute)}`;
}

/** Today in Mexico City (YYYY-MM-DD). */
export function todayInMexico(now: Date = new Date()): string {
  return mexicoCityDate(now);
}

/**
 * The UTC instant (ISO-8601) at which `date` begins in Mexico City. The zone's offset is read
 * from the time-zone database, so the years with daylight saving time (until 2022) are right too.
 */
export function mexicoCityDayStart(date: string): string {
  const [year, month, day] = requireIsoDate(date);
  const wanted = Date.UTC(year, month - 1, day);
  let guess = wanted;
  // Two rounds settle the offset even when the guess lands across an offset change.
  for (let round = 0; round < 2; round += 1) {
    const clock = wallClock(new Date(guess));
    const shown = Date.UTC(
      clock.year,
      clock.month - 1,
      clock.day,
      clock.hour,
      clock.minute,
      clock.second,
    );
    guess += wanted - shown;
  }
  return new Date(guess).toISOString();
}

/**
 * The instants [from, to) covering the Mexico City days `from` to `to`, both included; either
 * end may be open. Throws a RangeError on a malformed date or a range that ends before it begins.
 */
export function mexicoCityRange(range: { from?: string; to?: string }): {
  fromInstant?: string;
  toInstant?: string;
} {
  if (range.from && range.to && range.from > range.to) {
    throw new RangeError(`The range ends (${range.to}) before it begins (${range.from})`);
  }
  return {
    fromInstant: range.from ? mexicoCityDayStart(range.from) : undefined,
    toInstant: range.to ? mexicoCityDayStart(addDaysToDate(range.to, 1)) : undefined,
  };
}

/**
 * "2026-03-04T10:05:09": an instant as Mexico City's wall clock, to the second, without an offset
 * (how a CFDI's Fecha is written: local time where it was issued).
 */
export function mexicoCityTimestamp(instant: Date | string): string {
  const clock = wallClock(new Date(instant));
  return `${dateOf(clock)}T${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}`;
}
