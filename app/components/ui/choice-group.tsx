import type { FieldMetadata } from "@conform-to/react";
import type { ChangeEventHandler, ReactNode } from "react";
import { FieldErrors } from "~/components/ui/form-field";

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
  legend,
  choices,
  columns = "sm:grid-cols-2",
  onChange,
}: {
  meta: FieldMetadata<string | undefined>;
  legend: string;
  choices: Choice[];
  columns?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
}) {
  const initial = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  const invalid = Boolean(meta.errors?.length);
  return (
    <fieldset aria-describedby={invalid ? meta.errorId : undefined}>
      <legend className="mb-2 text-xl font-bold text-slate-900">{legend}</legend>
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
                className="mt-1 h-4 w-4 accent-primary"
              />
              <span>
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
