import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { invoiceLookupSchema } from "~/invoicing/invoice-lookup";

/**
 * Folio and e-mail of a purchase → a link to it, e-mailed to its own address (decision 0116):
 * the same answer whether or not they matched.
 */
export function InvoiceLookupForm({
  folio,
  sent,
  lastResult,
}: {
  folio: string;
  sent: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("invoicing");
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { folio },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invoiceLookupSchema }),
  });
  const { field, summary } = labelFields(fields, {
    folio: t("lookup.folio"),
    correo: t("lookup.email"),
  });
  return (
    <section aria-labelledby="invoice-lookup" className="max-w-xl">
      <h2 id="invoice-lookup" className="text-xl font-bold text-slate-900">
        {t("lookup.heading")}
      </h2>
      <p className="mt-2 mb-4 text-slate-800">{t("lookup.intro")}</p>
      {sent ? (
        <Alert tone="success" className="mb-6" testId="invoice-lookup-sent">
          <p className="font-semibold">{t("lookup.sent")}</p>
          <p className="mt-2">{t("lookup.sentHint")}</p>
        </Alert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <ErrorSummary
          refused={refusal(lastResult)}
          formErrors={form.errors}
          heading="invoicing:lookup.errorSummary"
          fields={summary}
        />
        <Field {...field.folio} hint={t("lookup.folioHint")} autoComplete="off" />
        <Field {...field.correo} type="email" autoComplete="email" />
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("lookup.submitting")}>
          {t("lookup.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}
