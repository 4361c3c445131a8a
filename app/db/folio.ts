/** "PED-2026-000123": the series, the year of the sale in Mexico City, and a yearly sequence. */
export function formatFolio(series: string, year: number, sequence: number): string {
  return `${series}-${year}-${String(sequence).padStart(6, "0")}`;
}

// Made on first use: the first Intl object a page builds loads ICU's data (decision 0128).
let mexicoCityYear: Intl.DateTimeFormat | undefined;

/** The calendar year in Mexico City: an order placed on 31 December at 20:00 belongs to that year. */
export function yearInMexico(date: Date): number {
  mexicoCityYear ??= new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Mexico_City",
    year: "numeric",
  });
  return Number(mexicoCityYear.format(date));
}

/** "por-2026-000001 " → "POR-2026-000001": folios are typed by hand. */
export function normaliseFolio(folio: string): string {
  return folio.trim().toUpperCase();
}
