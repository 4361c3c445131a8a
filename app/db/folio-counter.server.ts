import { sql } from "kysely";
import type { Db } from "./db.server";
import { formatFolio, yearInMexico } from "./folio";

/**
 * Takes the next number of a folio series for the year ("PED" orders, "POR" portability
 * requests, …). The upsert is one statement, so two documents never share a number; it works the
 * same on SQLite and PostgreSQL. Call it inside the transaction that writes the document, so a
 * failed write gives its number back.
 */
export async function nextFolio(db: Db, series: string, date = new Date()): Promise<string> {
  const year = yearInMexico(date);
  return formatFolio(series, year, await nextNumber(db, series, year));
}

/** The next number of a series that never restarts (kept as year 0): 1, 2, 3… */
export function nextInSeries(db: Db, series: string): Promise<number> {
  return nextNumber(db, series, 0);
}

async function nextNumber(db: Db, series: string, year: number): Promise<number> {
  const row = await db
    .insertInto("folio_counters")
    .values({ series, year, last_number: 1 })
    .onConflict((conflict) =>
      conflict.columns(["series", "year"]).doUpdateSet({
        last_number: sql<number>`folio_counters.last_number + 1`,
      }),
    )
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}
