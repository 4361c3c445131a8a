/**
 * CSV for a spreadsheet (RFC 4180): fields separated by commas, records by CRLF, a field quoted
 * when it holds a comma, a quote or a line break (its quotes doubled). The text starts with a
 * UTF-8 byte-order mark, without which Excel reads "López" as "LÃ³pez". Mexico's regional
 * settings separate lists with commas, so Excel in Spanish (Mexico) opens it as columns.
 */

import { escapeControlCharacters } from "~/lib/control-characters";

export type CsvCell = string | number | null | undefined;

const BOM = "\uFEFF";

/**
 * Characters a spreadsheet reads at the start of a cell as a formula (CSV injection): a
 * customer's name "=HYPERLINK(…)" must stay text. OWASP's list has tab and carriage return too:
 * they never start a cell, being written as escapes.
 */
const FORMULA_START = /^[=+\-@]/;

/**
 * A cell as text that no spreadsheet runs and no terminal acts on (the CSV may go to stdout):
 * control and bidi characters are written as visible escapes ("\u001B"), so that a line break
 * in a name cannot start a record either, and a leading formula character gets a quote before it.
 */
export function neutraliseCell(value: string): string {
  const text = escapeControlCharacters(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function field(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  // Numbers are ours (amounts): written as numbers so the spreadsheet can add them up.
  const text = typeof cell === "number" ? String(cell) : neutraliseCell(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: BOM, header record, then one record per row, each ended by CRLF. */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const records = [headers, ...rows].map((record) => record.map(field).join(","));
  return `${BOM}${records.map((record) => `${record}\r\n`).join("")}`;
}
