import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { FieldErrors } from "./form-field";

/** A required or optional checkbox with its label beside it (a 44 px target) and its messages. */
export function Checkbox({
  meta,
  children,
  className,
}: {
  meta: FieldMetadata<unknown>;
  children: ReactNode;
  className?: string;
}) {
  const { key, ...props } = getInputProps(meta as FieldMetadata<string | undefined>, {
    type: "checkbox",
  });
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          key={key}
          {...props}
          className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400 accent-primary"
        />
        <label htmlFor={meta.id} className="min-w-0 wrap-anywhere text-slate-900">
          {children}
        </label>
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
