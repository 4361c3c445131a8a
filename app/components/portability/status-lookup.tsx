import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { Field } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { statusLookupSchema } from "~/portability/portability-schema";
import type { StatusLookup as Lookup } from "~/portability/status-lookup.server";
import { RequestDetails } from "./request-details";

/** The status lookup by folio and number: a plain GET form, and what it found. */
export function StatusLookup({
  lookup,
  folio,
}: {
  lookup: Lookup | null;
  /** Fills the folio in when the page knows it. */
  folio: string | null;
}) {
  const navigation = useNavigation();
  const { t } = useTranslation("portability");
  const [form, fields] = useForm({
    id: "consulta-portabilidad",
    lastResult: lookup?.result,
    defaultValue: folio ? { folio } : undefined,
    constraint: getZodConstraint(statusLookupSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: statusLookupSchema }),
  });
  const { field } = labelFields(fields, {
    folio: t("lookup.folio"),
    numero: t("lookup.phoneNumber"),
  });
  const searching =
    navigation.state === "loading" &&
    navigation.formMethod === "GET" &&
    navigation.location.pathname === "/portabilidad";
  return (
    <section
      id="consulta"
      aria-labelledby="consulta-titulo"
      className="mt-12 border-t border-slate-200 pt-8"
    >
      <h2 id="consulta-titulo" className="text-2xl font-bold text-slate-900">
        {t("lookup.heading")}
      </h2>
      <Form
        method="get"
        action="/portabilidad#consulta"
        preventScrollReset
        {...getFormProps(form)}
        className="mt-4 grid max-w-3xl items-start gap-5 sm:grid-cols-[1fr_1fr_auto]"
      >
        <Field {...field.folio} hint={t("lookup.folioHint")} />
        <Field {...field.numero} type="tel" inputMode="tel" />
        <SubmitButton
          variant="secondary"
          width="blockOnPhone"
          pending={searching}
          pendingLabel={t("lookup.submitting")}
          className="sm:mt-12"
        >
          {t("lookup.submit")}
        </SubmitButton>
      </Form>
      {lookup?.outcome === "found" && lookup.request ? (
        <div className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-5" role="status">
          <h3 className="text-lg font-bold text-slate-900">{t("lookup.resultHeading")}</h3>
          <RequestDetails request={lookup.request} testId="portability-lookup" />
        </div>
      ) : null}
      {lookup && lookup.outcome !== "found" && lookup.outcome !== "invalid" ? (
        <Alert className="mt-6">{t(`lookup.${lookup.outcome}`)}</Alert>
      ) : null}
    </section>
  );
}
