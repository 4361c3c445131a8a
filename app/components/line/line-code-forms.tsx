import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { ReactNode } from "react";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FormKeyInput } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { LINE_FORM_INTENTS, lineCodeSchema, lineNumberSchema } from "~/line/line-forms";

/**
 * The two steps that prove a number, the same on /my-account/lineas (add a line) and /saldo:
 * the number, then the code sent to it by SMS. Plain forms that work without JavaScript.
 */

export function LineNumberForm({
  idempotencyKey,
  lastResult,
  submitLabel,
  pendingLabel,
  action,
}: {
  idempotencyKey: string;
  lastResult: SubmissionResult<string[]> | undefined;
  submitLabel: string;
  pendingLabel: string;
  /** The route that answers (the page's own by default). */
  action?: string;
}) {
  const { t } = useTranslation("line");
  const [form, fields] = useForm({
    id: "line-number",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: lineNumberSchema }),
  });
  const { field, summary } = labelFields(fields, { phone_number: t("add.phone_number") });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="max-w-xl space-y-4">
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="line:add.errorSummary"
        fields={summary}
      />
      <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
      <Field
        {...field.phone_number}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        hint={t("add.phone_number_hint")}
      />
      <SubmitButton
        name="intent"
        value={LINE_FORM_INTENTS.sendCode}
        width="blockOnPhone"
        pendingLabel={pendingLabel}
      >
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}

export function LineCodeForm({
  idempotencyKey,
  lastResult,
  number,
  sendNumber,
  lead,
  codeHint,
  submitLabel,
  pendingLabel,
  children,
}: {
  idempotencyKey: string;
  lastResult: SubmissionResult<string[]> | undefined;
  /** The number the code was sent to. */
  number: string;
  /** Whether the forms carry the number (adding a line); /saldo keeps it in its cookie. */
  sendNumber: boolean;
  lead: ReactNode;
  /** Where the code arrived, in the page's own words (the line to add, to look up, to register). */
  codeHint: string;
  submitLabel: string;
  pendingLabel: string;
  /** More under the forms. */
  children?: ReactNode;
}) {
  const { t } = useTranslation("line");
  const [form, fields] = useForm({
    id: "line-code",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: lineCodeSchema }),
  });
  const { field, summary } = labelFields(fields, { code: t("add.code") });
  const key =
    typeof fields.idempotency_key.value === "string"
      ? fields.idempotency_key.value
      : idempotencyKey;
  return (
    <div className="max-w-xl space-y-4" data-testid="line-code-step">
      <p className="text-slate-800" data-testid="code-sent">
        {lead}
      </p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <ErrorSummary
          refused={refusal(lastResult)}
          formErrors={form.errors}
          heading="line:add.errorSummary"
          fields={summary}
        />
        <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
        {sendNumber ? <input type="hidden" name="phone_number" value={number} /> : null}
        <Field {...field.code} inputMode="numeric" autoComplete="one-time-code" hint={codeHint} />
        <SubmitButton
          name="intent"
          value={LINE_FORM_INTENTS.checkCode}
          width="blockOnPhone"
          pendingLabel={pendingLabel}
        >
          {submitLabel}
        </SubmitButton>
      </Form>
      <Form method="post">
        <input type="hidden" name="idempotency_key" value={key} />
        {sendNumber ? <input type="hidden" name="phone_number" value={number} /> : null}
        <SubmitButton
          name="intent"
          value={LINE_FORM_INTENTS.resendCode}
          variant="link"
          width="auto"
          pendingLabel={t("add.resending")}
        >
          {t("add.resend")}
        </SubmitButton>
      </Form>
      {children}
    </div>
  );
}
