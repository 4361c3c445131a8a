import type { FieldMetadata } from "@conform-to/react";
import { FieldErrors } from "./form-parts";

/** A required choice among a few options, as radio buttons that work without JavaScript. */
export function RadioGroup({
  meta,
  legend,
  options,
}: {
  meta: FieldMetadata<unknown>;
  legend: string;
  options: Array<{ value: string; label: string; description?: string }>;
}) {
  const initial = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  return (
    <fieldset
      className="mb-4"
      aria-invalid={meta.errors?.length ? true : undefined}
      aria-describedby={meta.errors?.length ? meta.errorId : undefined}
    >
      <legend className="mb-2 font-medium text-slate-900">{legend}</legend>
      <div className="flex flex-col gap-2">
        {options.map((option) => {
          const id = `${meta.id}-${option.value}`;
          return (
            <label
              key={option.value}
              htmlFor={id}
              className="flex cursor-pointer items-start gap-3 rounded border border-slate-300 px-3 py-2 hover:bg-slate-50"
            >
              <input
                type="radio"
                id={id}
                name={meta.name}
                value={option.value}
                form={meta.formId}
                defaultChecked={initial === option.value}
                className="mt-1"
              />
              <span>
                <span className="block font-medium">{option.label}</span>
                {option.description ? (
                  <span className="block text-sm text-slate-700">{option.description}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      <FieldErrors meta={meta} />
    </fieldset>
  );
}
