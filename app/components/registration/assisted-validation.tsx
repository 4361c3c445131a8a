import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { type DetailsRow, DetailsList } from "~/components/ui/details-list";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FormKeyInput, SelectField } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { assistedValidationSchema, TIME_WINDOWS } from "~/registration/assisted-validation-form";
import type {
  AssistedValidationAnswer,
  AssistedValidationReceipt,
} from "~/registration/assisted-validation-request.server";
import { POINTS_OF_SERVICE_PATH } from "~/registration/paths";

/** The request form: a contact, the number to register, when to call. A real POST form. */
export function AssistedValidationForm({
  idempotencyKey,
  answer,
}: {
  idempotencyKey: string;
  answer: AssistedValidationAnswer | undefined;
}) {
  const { t } = useTranslation("registration");
  const lastResult = answer?.result ?? undefined;
  const [form, fields] = useForm({
    id: "validacion-asistida",
    lastResult,
    constraint: getZodConstraint(assistedValidationSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: assistedValidationSchema }),
  });
  const { field, summary } = labelFields(fields, {
    contacto: t("assisted.contact"),
    numero: t("assisted.number"),
    franja: t("assisted.window"),
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="max-w-2xl space-y-5"
      data-testid="assisted-validation-form"
    >
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="registration:assisted.errorSummary"
        fields={summary}
        testId="assisted-validation-problem"
      />
      <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
      <Field {...field.contacto} hint={t("assisted.contactHint")} autoComplete="email" />
      <Field
        {...field.numero}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        hint={t("assisted.numberHint")}
      />
      <SelectField
        {...field.franja}
        placeholder={t("assisted.chooseWindow")}
        options={TIME_WINDOWS.map((window) => ({
          value: window,
          label: t(`assisted.windows.${window}`),
        }))}
      />
      <p className="text-sm text-slate-700">{t("assisted.windowHint")}</p>
      <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("assisted.submitting")}>
        {t("assisted.submit")}
      </SubmitButton>
    </Form>
  );
}

/** The request recorded: its folio, and what happens next. */
export function AssistedValidationDone({ receipt }: { receipt: AssistedValidationReceipt }) {
  const { t } = useTranslation("registration");
  const rows: DetailsRow[] = [
    { label: t("assisted.folio"), value: receipt.folio, testId: "assisted-validation-folio" },
    {
      label: t("assisted.doneNumber"),
      value: receipt.number,
      testId: "assisted-validation-number",
    },
    {
      label: t("assisted.doneWindow"),
      value: t(`assisted.windows.${receipt.timeWindow}`),
      testId: "assisted-validation-window",
    },
  ];
  return (
    <section aria-labelledby="assisted-done" className="max-w-2xl">
      <Alert tone="success" testId="assisted-validation-done">
        <h2 id="assisted-done" className="text-xl font-bold">
          {t("assisted.doneHeading")}
        </h2>
      </Alert>
      <DetailsList rows={rows} />
      <h3 className="mt-6 text-lg font-bold text-slate-900">{t("assisted.next")}</h3>
      <p className="mt-2 text-slate-800">{t("assisted.nextContact")}</p>
      <p className="mt-2 text-slate-800">{t("assisted.nextDocuments")}</p>
      <p className="mt-2 text-slate-800">{t("assisted.nextMeanwhile")}</p>
      <Link
        to={POINTS_OF_SERVICE_PATH}
        className={`${buttonClass({ variant: "outline", width: "blockOnPhone" })} mt-4`}
      >
        {t("assisted.findPoint")}
      </Link>
    </section>
  );
}
