/**
 * Dates as customers read them (es-MX text: "3 de marzo de 2026, 14:05"), the one formatter of
 * pages and e-mails. Calendar arithmetic on Mexico City days (YYYY-MM-DD: ops ranges, vigencias,
 * portability dates) is in ./mexico-city-days.ts; a folio's year in ~/db/folio.ts.
 */
// Each made on first use: the first Intl object a page builds loads ICU's data, which a page
// that shows no date need not wait for while it starts (decision 0128).
let mexicoCityDateTime: Intl.DateTimeFormat | undefined;
let mexicoCityDate: Intl.DateTimeFormat | undefined;

/**
 * "3 de marzo de 2026, 14:05" in Mexico City time, whatever the server's or the browser's zone:
 * the same text on both sides, so hydration never disagrees.
 */
export function formatDateTime(iso: string): string {
  mexicoCityDateTime ??= new Intl.DateTimeFormat("es-MX", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "America/Mexico_City",
  });
  return mexicoCityDateTime.format(new Date(iso));
}

/** "3 de marzo de 2026" in Mexico City time. */
export function formatDate(iso: string): string {
  mexicoCityDate ??= new Intl.DateTimeFormat("es-MX", {
    dateStyle: "long",
    timeZone: "America/Mexico_City",
  });
  return mexicoCityDate.format(new Date(iso));
}

/**
 * "9 de diciembre de 2025": a Mexico City calendar day (YYYY-MM-DD: a rule's date, a scheduled
 * portability) read at noon there, so that no time zone moves it a day.
 */
export function formatDay(day: string): string {
  return formatDate(`${day}T12:00:00-06:00`);
}

/** The instant `days` whole days after `iso` (what a validity of that many days runs to). */
export function addDays(iso: string, days: number): string {
  return new Date(new Date(iso).getTime() + days * 24 * 60 * 60 * 1000).toISOString();
}
