import type { FieldMetadata } from "@conform-to/react";
import type { ChangeEventHandler, ReactNode } from "react";
import { FieldErrors } from "./form-field";

export interface Choice {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  testId?: string;
}

/**
 * One choice among a few, as radio buttons (so it works without JavaScript), each a large card
 * that is easy to tap. Errors are translation keys, shown in Spanish under the group.
 */
export function ChoiceGroup({
  meta,
  label,
  choices,
  columns = "sm:grid-cols-2",
  legendSize = "heading",
  onChange,
}: {
  meta: FieldMetadata<string | undefined> | FieldMetadata<unknown>;
  /** The group's legend. */
  label: string;
  choices: Choice[];
  columns?: string;
  /** A section's heading (checkout, top-up) or a field's label (an auth step). */
  legendSize?: "heading" | "label";
  onChange?: ChangeEventHandler<HTMLInputElement>;
}) {
  const initial = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  const invalid = Boolean(meta.errors?.length);
  return (
    // The id is where the error summary's link for this group points.
    <fieldset
      id={meta.id}
      aria-describedby={invalid ? meta.errorId : undefined}
      className="min-w-0"
    >
      <legend
        className={`mb-2 text-slate-900 ${legendSize === "heading" ? "text-xl font-bold" : "font-semibold"}`}
      >
        {label}
      </legend>
      <div className={`grid gap-3 ${columns}`}>
        {choices.map((choice) => {
          const id = `${meta.id}-${choice.value}`;
          return (
            <label
              key={choice.value}
              htmlFor={id}
              data-testid={choice.testId}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 bg-white px-4 py-3 hover:border-primary has-[:checked]:border-primary has-[:checked]:bg-primary-soft"
            >
              <input
                type="radio"
                id={id}
                name={meta.name}
                value={choice.value}
                form={meta.formId}
                defaultChecked={initial === choice.value}
                aria-invalid={invalid || undefined}
                onChange={onChange}
                className="mt-1 h-4 w-4 shrink-0 accent-primary"
              />
              <span className="min-w-0 wrap-anywhere">
                <span className="block font-semibold text-slate-900">{choice.label}</span>
                {choice.description ? (
                  <span className="block text-sm text-slate-700">{choice.description}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
