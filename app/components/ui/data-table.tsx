import type { ReactNode, TdHTMLAttributes } from "react";

/** One column: its header, what each row shows in it, and the cell's attributes (test ids…). */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
  cellProps?: (
    row: Row,
  ) => TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, string>;
}

/**
 * A table of records (orders, top-ups, messages): header row, one row per record. On a phone
 * (below `sm`) each row is a card of "header: value" lines, the header read from the cell's
 * `data-label`: a table squeezed into 375 px broke its values inside words ("$60 / 0.00 / MX / N").
 * The ARIA roles keep it a table for screen readers whatever its display.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  testId,
  rowTestId,
  className = "",
}: {
  /** Read by screen readers only; the section's heading names it for everyone else. */
  caption?: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  testId?: string;
  rowTestId?: string;
  className?: string;
}) {
  const cellClass = "py-2 pr-4 last:pr-0";
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table role="table" className="w-full text-left max-sm:block" data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead role="rowgroup" className="max-sm:sr-only">
          <tr role="row" className="border-b border-slate-300 text-sm text-slate-700">
            {columns.map((column) => (
              <th key={column.header} role="columnheader" scope="col" className={cellClass}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="max-sm:block">
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              role="row"
              className="border-b border-slate-200 align-top max-sm:block max-sm:py-2"
              data-testid={rowTestId}
            >
              {columns.map((column) => (
                <td
                  key={column.header}
                  role="cell"
                  data-label={column.header}
                  className={`${cellClass} ${PHONE_CELL} ${column.className ?? ""}`}
                  {...column.cellProps?.(row)}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A cell on a phone: its column's header on the left, the value on the right, words whole. */
const PHONE_CELL =
  "max-sm:flex max-sm:justify-between max-sm:gap-4 max-sm:py-1 max-sm:pr-0 max-sm:text-right max-sm:wrap-break-word max-sm:before:shrink-0 max-sm:before:text-left max-sm:before:text-sm max-sm:before:font-medium max-sm:before:text-slate-700 max-sm:before:content-[attr(data-label)]";
