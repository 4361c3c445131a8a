/**
 * CSV for a spreadsheet (RFC 4180): fields separated by commas, records by CRLF, a field quoted
 * when it holds a comma, a quote or a line break (its quotes doubled). The text starts with a
 * UTF-8 byte-order mark, without which Excel reads "López" as "LÃ³pez". Mexico's regional
 * settings separate lists with commas, so Excel in Spanish (Mexico) opens it as columns.
 */

export type CsvCell = string | number | null | undefined;

const BOM = "\uFEFF";

/**
 * Characters a spreadsheet reads at the start of a cell as a formula (CSV injection): a
 * customer's name "=HYPERLINK(…)" must stay text. Tab and carriage return are on OWASP's list too.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as text that no spreadsheet runs: a leading formula character gets a quote before it. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
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
