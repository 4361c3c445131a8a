import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FormKeyInput } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import type { CheckoutHolder } from "~/registration/holder";
import { holderProofFormSchema, type HolderProofFields } from "~/registration/holder-proof-form";
import { ONLINE_IDENTIFICATION_TYPES } from "~/registration/identification-evidence";
import { EvidenceFields } from "./holder-form";

/**
 * The holder named at checkout shows their identification (decision 0139): a persona física
 * chooses INE or passport and types its number; everyone uploads its photo and a selfie. A
 * multipart form that works without JavaScript; a refused form never carries a photo back.
 */
export function HolderProofForm({
  kind,
  action,
  identificationType,
  idempotencyKey,
  attemptsLeft,
  lastResult,
}: {
  kind: CheckoutHolder["holder_kind"];
  /** This page's address, the order's reference included. */
  action: string;
  identificationType: (typeof ONLINE_IDENTIFICATION_TYPES)[number] | null;
  idempotencyKey: string;
  attemptsLeft: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("registration");
  const schema = holderProofFormSchema(kind);
  const [form, fields] = useForm<HolderProofFields>({
    id: `holder-proof-${kind}`,
    lastResult,
    defaultValue: identificationType ? { identification_type: identificationType } : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const { field, summary: allFields } = labelFields(fields, {
    identification_type: t("holder.identificationType"),
    document_number: t("holder.documentNumber"),
    id_photo: kind === "extranjera" ? t("holder.passportPhoto") : t("holder.idPhoto"),
    selfie: t("holder.selfie"),
  });
  const shown = new Set(
    kind === "fisica"
      ? ["identification_type", "document_number", "id_photo", "selfie"]
      : ["id_photo", "selfie"],
  );
  const summary = allFields.filter((entry) => shown.has(entry.meta.name));
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      {...getFormProps(form)}
      className="max-w-2xl space-y-5"
      data-testid="holder-proof-form"
    >
      <ErrorSummary
        refused={refusal(lastResult)}
        formErrors={form.errors}
        heading="registration:holder.errorSummary"
        fields={summary}
      />
      <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
      {kind === "fisica" ? (
        <>
          <ChoiceGroup
            {...field.identification_type}
            choices={ONLINE_IDENTIFICATION_TYPES.map((type) => ({
              value: type,
              label: t(`identificationTypes.${type}`),
            }))}
            columns="sm:grid-cols-1"
            legendSize="label"
          />
          <Field
            {...field.document_number}
            hint={t("holder.documentNumberHint")}
            autoComplete="off"
          />
        </>
      ) : null}
      <EvidenceFields field={field} passport={kind === "extranjera"} />
      <p className="text-sm text-slate-800">{t("holder.keptNoImages")}</p>
      <p className="text-sm text-slate-700" data-testid="holder-proof-attempts">
        {t("proof.attemptsLeft", { count: attemptsLeft })}
      </p>
      <SubmitButton size="lg" width="blockOnPhone" pendingLabel={t("holder.submitting")}>
        {t("proof.submit")}
      </SubmitButton>
    </Form>
  );
}
