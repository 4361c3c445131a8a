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
 * A table of records (orders, top-ups, messages): header row, one row per record, scrolling
 * sideways inside its own box on a narrow phone instead of widening the page.
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
      <table className="w-full text-left" data-testid={testId}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr className="border-b border-slate-300 text-sm text-slate-700">
            {columns.map((column) => (
              <th key={column.header} scope="col" className={cellClass}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className="border-b border-slate-200 align-top"
              data-testid={rowTestId}
            >
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`${cellClass} ${column.className ?? ""}`}
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
