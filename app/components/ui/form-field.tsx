import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { translateFormMessage } from "~/lib/form-messages";
import { useSettledErrors } from "./settled-errors";

/** The one look of a text input or select; red when the field is invalid. */
export const INPUT_CLASS =
  "mt-1 block w-full min-w-0 rounded border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-[invalid=true]:border-error aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-error read-only:bg-slate-100";

/** A one-choice select's props: a field sent twice comes back as a list, and shows its first. */
export function singleSelectProps(meta: Parameters<typeof getSelectProps>[0]) {
  const props = getSelectProps(meta);
  const { defaultValue } = props;
  return { ...props, defaultValue: Array.isArray(defaultValue) ? defaultValue[0] : defaultValue };
}

/**
 * The field's messages, under it. Translation keys ("commerce:checkout.errors.…") are shown in
 * Spanish; a finished message passes through unchanged. The element is always there (its id is
 * the input's aria-describedby once invalid); a new message waits for a tap to land.
 */
export function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  const { t } = useTranslation();
  const shown = useSettledErrors(errors);
  return (
    <div
      id={id}
      className="mt-1 text-sm font-medium wrap-anywhere text-error"
      data-testid="field-error"
    >
      {shown?.map((error) => (
        <p key={error}>{translateFormMessage(t, error)}</p>
      ))}
    </div>
  );
}

/** A control's label above it, its hint, and its messages under it: the one frame of every field. */
function FieldFrame({
  meta,
  label,
  hint,
  hintId,
  className,
  children,
}: {
  meta: { id: string; errorId: string; errors: string[] | undefined };
  label: ReactNode;
  hint?: ReactNode;
  hintId?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`min-w-0 ${className ?? ""}`}>
      <label htmlFor={meta.id} className="block font-semibold text-slate-900">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-700">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

type InputType = "text" | "email" | "tel" | "password";

/** A labelled text input with its hint and its messages. */
export function Field({
  meta,
  label,
  hint,
  type = "text",
  autoComplete,
  inputMode,
  readOnly,
  className,
}: {
  meta: FieldMetadata<string | undefined> | FieldMetadata<unknown>;
  label: ReactNode;
  hint?: ReactNode;
  type?: InputType;
  autoComplete?: string;
  inputMode?: "text" | "numeric" | "tel" | "email";
  readOnly?: boolean;
  className?: string;
}) {
  const hintId = `${meta.id}-hint`;
  const { key, ...props } = getInputProps(meta as FieldMetadata<string | undefined>, {
    type,
    ariaDescribedBy: hint ? hintId : undefined,
  });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} hintId={hintId} className={className}>
      <input
        key={key}
        {...props}
        autoComplete={autoComplete}
        inputMode={inputMode}
        readOnly={readOnly}
        className={INPUT_CLASS}
      />
    </FieldFrame>
  );
}

/**
 * A labelled file input: a photo taken with the phone's camera (`capture`: "user" for a selfie,
 * "environment" for a document) or chosen from its gallery. Its form must post
 * multipart/form-data. A browser never fills a file input back, so a refused form asks again.
 */
export function FileField({
  meta,
  label,
  hint,
  accept,
  capture,
  className,
}: {
  meta: FieldMetadata<unknown>;
  label: ReactNode;
  hint?: ReactNode;
  accept: string;
  capture?: "user" | "environment";
  className?: string;
}) {
  const hintId = `${meta.id}-hint`;
  const { key, ...props } = getInputProps(meta as FieldMetadata<File | undefined>, {
    type: "file",
    ariaDescribedBy: hint ? hintId : undefined,
  });
  return (
    <FieldFrame meta={meta} label={label} hint={hint} hintId={hintId} className={className}>
      <input
        key={key}
        {...props}
        accept={accept}
        capture={capture}
        className={`${INPUT_CLASS} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-1 file:font-semibold`}
      />
    </FieldFrame>
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
  meta: FieldMetadata<string | undefined> | FieldMetadata<unknown>;
  label: ReactNode;
  placeholder?: string;
  options: Array<{ value: string; label: string }>;
  autoComplete?: string;
  className?: string;
}) {
  const { key, ...props } = singleSelectProps(meta as FieldMetadata<string | undefined>);
  return (
    <FieldFrame meta={meta} label={label} className={className}>
      <select key={key} {...props} autoComplete={autoComplete} className={INPUT_CLASS}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * The form's idempotency key (decision 0086): the one the server's last answer carried (the key
 * of the submission being corrected, or a new one in place of a refused key: loaders do not run
 * again after a 4xx), else the one the page was issued. Read from the field's value, which
 * conform updates with each answer (its initial value stays the first page's).
 */
export function FormKeyInput({
  meta,
  issued,
}: {
  meta: FieldMetadata<string | undefined> | FieldMetadata<unknown>;
  issued: string;
}) {
  const key = typeof meta.value === "string" ? meta.value : issued;
  return <input type="hidden" name={meta.name} value={key} />;
}
