import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";

const inputClass =
  "mt-1 block w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-error aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-error";

/** A one-choice select's props: a field sent twice comes back as a list, and shows its first. */
export function singleSelectProps(meta: Parameters<typeof getSelectProps>[0]) {
  const props = getSelectProps(meta);
  const { defaultValue } = props;
  return { ...props, defaultValue: Array.isArray(defaultValue) ? defaultValue[0] : defaultValue };
}

/**
 * Above a refused form: what the server said about the whole form (a conflict, the database
 * busy) or, when only fields are wrong (`fieldsRefused`), `summaryKey` pointing to them.
 */
export function FormErrorSummary({
  formErrors,
  fieldsRefused = false,
  summaryKey,
}: {
  formErrors: string[] | undefined;
  fieldsRefused?: boolean;
  summaryKey?: string;
}) {
  const { t } = useTranslation();
  const messages = formErrors?.length
    ? formErrors
    : fieldsRefused && summaryKey
      ? [summaryKey]
      : [];
  if (!messages.length) return null;
  return (
    <div
      role="alert"
      className="rounded border-l-4 border-error bg-error-soft px-4 py-3 text-error"
    >
      {messages.map((error) => (
        <p key={error}>{translateFormMessage(t, error)}</p>
      ))}
    </div>
  );
}

/** The field's messages: translation keys from the shared schema, shown in Spanish. */
export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  const { t } = useTranslation();
  return (
    <div id={id} className="mt-1 text-sm font-medium text-error" data-testid="field-error">
      {errors?.map((error) => (
        <p key={error}>{translateFormMessage(t, error)}</p>
      ))}
    </div>
  );
}

type InputType = "text" | "email" | "tel" | "password";

export function TextField({
  meta,
  label,
  hint,
  type = "text",
  autoComplete,
  inputMode,
  className,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  type?: InputType;
  autoComplete?: string;
  inputMode?: "text" | "numeric" | "tel" | "email";
  className?: string;
}) {
  const hintId = `${meta.id}-hint`;
  const { key, ...props } = getInputProps(meta, {
    type,
    ariaDescribedBy: hint ? hintId : undefined,
  });
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="block font-semibold text-slate-900">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      <input
        key={key}
        {...props}
        autoComplete={autoComplete}
        inputMode={inputMode}
        className={inputClass}
      />
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function SelectField({
  meta,
  label,
  placeholder,
  options,
  autoComplete,
  className,
}: {
  meta: FieldMetadata<string | undefined>;
  label: string;
  placeholder: string;
  options: Array<{ value: string; label: string }>;
  autoComplete?: string;
  className?: string;
}) {
  const { key, ...props } = singleSelectProps(meta);
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="block font-semibold text-slate-900">
        {label}
      </label>
      <select key={key} {...props} autoComplete={autoComplete} className={inputClass}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
