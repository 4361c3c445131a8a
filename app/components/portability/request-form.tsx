import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Checkbox } from "~/components/ui/checkbox";
import { ErrorSummary } from "~/components/ui/error-summary";
import { Field, FormKeyInput, SelectField } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { legalDocumentPath, type LegalDocument } from "~/lib/external-links";
import { CARRIERS } from "~/portability/carriers";
import { carrierLabel } from "~/portability/display";
import { portabilitySchema } from "~/portability/portability-schema";
import type { PortabilityRefusal } from "~/portability/portability-request.server";

/** The portability request form; `answer` is the server's refusal of the last sending, if any. */
export function RequestForm({
  idempotencyKey,
  answer,
}: {
  idempotencyKey: string;
  answer: PortabilityRefusal | undefined;
}) {
  const { t } = useTranslation("portability");
  const [form, fields] = useForm({
    id: "solicitud-portabilidad",
    lastResult: answer?.result,
    constraint: getZodConstraint(portabilitySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: portabilitySchema }),
  });
  const { field, summary } = labelFields(fields, {
    phone_number: t("form.phoneNumber"),
    nip: t("form.nip"),
    full_name: t("form.fullName"),
    email: t("form.email"),
    curp: t("form.curp"),
    current_carrier: t("form.currentCarrier"),
    iccid: t("form.iccid"),
    accept_terms: t("form.acceptTermsLabel"),
  });
  const problem = answer?.problem ?? null;
  const refused = answer && (problem || answer.result.status === "error") ? answer : null;
  const pdfLink = (slug: LegalDocument, label: string) => (
    <a
      href={legalDocumentPath(slug)}
      target="_blank"
      rel="noopener noreferrer"
      className="font-medium text-secondary underline underline-offset-4"
    >
      {label} <span className="sr-only">{t("form.opensPdf")}</span>
    </a>
  );

  return (
    <section aria-labelledby="solicitud" className="lg:col-span-3">
      <h2 id="solicitud" className="text-2xl font-bold text-slate-900">
        {t("form.heading")}
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-5">
        {/* A refusal of the whole request (a duplicate) or of its fields, focused with JavaScript. */}
        <ErrorSummary
          refused={refused}
          formErrors={form.errors}
          heading="portability:form.errorSummary"
          testId={problem ? "portability-problem" : undefined}
          fields={summary}
        >
          {problem?.kind === "duplicate" ? (
            <a
              href="#consulta"
              className="mt-1 inline-block font-semibold underline underline-offset-4"
            >
              {t("result.lookupLink")}
            </a>
          ) : null}
        </ErrorSummary>
        <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            {...field.phone_number}
            type="tel"
            hint={t("form.phoneNumberHint")}
            autoComplete="tel-national"
            inputMode="tel"
          />
          {/* A new key after every reply: the NIP field starts empty, as the hint says. */}
          <div key={answer?.replyId ?? "first"}>
            <Field
              {...field.nip}
              hint={answer ? t("form.nipRetype") : t("form.nipHint")}
              autoComplete="one-time-code"
              inputMode="numeric"
            />
          </div>
        </div>
        <Field {...field.full_name} autoComplete="name" />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field {...field.email} type="email" autoComplete="email" />
          <Field {...field.curp} hint={t("form.curpHint")} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            {...field.current_carrier}
            placeholder={t("form.chooseCarrier")}
            options={CARRIERS.map((carrier) => ({
              value: carrier.id,
              label: carrierLabel(carrier.id, t("form.otherCarrier")),
            }))}
          />
          <Field {...field.iccid} hint={t("form.iccidHint")} inputMode="numeric" />
        </div>
        <Checkbox meta={field.accept_terms.meta}>
          {t("form.acceptTermsBefore")} {pdfLink("portabilidad", t("form.portabilityPolicy"))}{" "}
          {t("form.acceptTermsAnd")} {pdfLink("aviso-de-privacidad", t("form.privacyNotice"))}
          {t("form.acceptTermsAfter")}
        </Checkbox>
        <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("form.submitting")}>
          {t("form.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}
