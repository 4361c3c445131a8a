import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Checkbox } from "~/components/ui/checkbox";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { SubmitButton } from "~/components/ui/button";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, SelectField } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { fiscalDataSchema } from "~/invoicing/fiscal-data";
import { REGIMENES_FISCALES, USOS_CFDI } from "~/invoicing/sat-catalogs";
import type { RfcKind } from "~/registration/rfc";

export interface InvoiceFormProps {
  askCardKind: boolean;
  /** The payment's card, to say which one is asked about. */
  card: { brand: string; last4: string } | null;
  savedRfcMasked: string | null;
  savedRfcKind: RfcKind | null;
  signedIn: boolean;
  defaults: Record<string, string>;
  lastResult: SubmissionResult<string[]> | undefined;
}

/**
 * The receiver's fiscal data (issue 29): a plain form that works without JavaScript; with it,
 * each field is checked as it is left, by the same schema the server runs. The régimen and use
 * lists are SAT's catalogues, each régimen marked with who may hold it.
 */
export function InvoiceForm({
  askCardKind,
  card,
  savedRfcMasked,
  savedRfcKind,
  signedIn,
  defaults,
  lastResult,
}: InvoiceFormProps) {
  const { t } = useTranslation("invoicing");
  const schema = fiscalDataSchema({ askCardKind, savedRfcKind });
  const [form, fields] = useForm({
    lastResult,
    defaultValue: defaults,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const { field, summary } = labelFields(fields, {
    rfc: t("form.rfc"),
    nombre: t("form.nombre"),
    regimen: t("form.regimen"),
    codigo_postal: t("form.codigo_postal"),
    uso: t("form.uso"),
    correo: t("form.correo"),
    tarjeta: t("form.tarjeta"),
  });
  const holders = (regimen: (typeof REGIMENES_FISCALES)[number]) =>
    regimen.fisica && regimen.moral
      ? t("form.regimenBoth")
      : regimen.fisica
        ? t("form.regimenFisica")
        : t("form.regimenMoral");

  return (
    <Form method="post" {...getFormProps(form)} className="max-w-2xl space-y-5">
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="invoicing:form.errorSummary"
        fields={summary}
      />
      <Field
        {...field.rfc}
        hint={savedRfcMasked ? t("form.rfcSavedHint") : t("form.rfcHint")}
        autoComplete="off"
      />
      {savedRfcMasked ? (
        <Checkbox meta={fields.rfc_guardado}>
          {t("form.useSavedRfc", { rfc: savedRfcMasked })}
        </Checkbox>
      ) : null}
      <Field {...field.nombre} hint={t("form.nombreHint")} autoComplete="organization" />
      <SelectField
        {...field.regimen}
        placeholder={t("form.regimenPlaceholder")}
        options={REGIMENES_FISCALES.map((regimen) => ({
          value: regimen.key,
          label: `${t("form.regimenOption", { key: regimen.key, name: regimen.name })} (${holders(regimen)})`,
        }))}
      />
      <Field
        {...field.codigo_postal}
        hint={t("form.codigoPostalHint")}
        autoComplete="postal-code"
        inputMode="numeric"
      />
      <SelectField
        {...field.uso}
        placeholder={t("form.usoPlaceholder")}
        options={USOS_CFDI.map((uso) => ({
          value: uso.key,
          label: t("form.regimenOption", { key: uso.key, name: uso.name }),
        }))}
      />
      <p className="-mt-3 text-sm text-slate-700">{t("form.usoHint")}</p>
      <Field {...field.correo} type="email" autoComplete="email" />
      {askCardKind ? (
        <div>
          <ChoiceGroup
            {...field.tarjeta}
            legendSize="label"
            choices={[
              { value: "credito", label: t("form.credito") },
              { value: "debito", label: t("form.debito") },
            ]}
          />
          {card ? (
            <p className="mt-1 text-sm text-slate-700">
              {t("form.tarjetaHint", { brand: card.brand, last4: card.last4 })}
            </p>
          ) : null}
        </div>
      ) : null}
      {signedIn ? <p className="text-sm text-slate-700">{t("form.savedNote")}</p> : null}
      <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("form.submitting")}>
        {t("form.submit")}
      </SubmitButton>
    </Form>
  );
}
