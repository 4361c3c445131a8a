import type { ReactNode } from "react";

export interface DetailsRow {
  label: string;
  value: ReactNode;
  /** The value's data-testid: what tests and the soak read. */
  testId: string;
}

/**
 * Labelled facts of one thing (a folio, its status, its date…): stacked on a phone, two columns
 * from `sm` up. A long value (a folio, a razón social) wraps anywhere rather than overflow.
 */
export function DetailsList({ rows, testId }: { rows: readonly DetailsRow[]; testId?: string }) {
  return (
    <dl data-testid={testId} className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
      {rows.map((row) => (
        <div key={row.testId} className="contents">
          <dt className="font-semibold text-slate-700">{row.label}</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-900" data-testid={row.testId}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
