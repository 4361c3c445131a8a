import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { ChoiceGroup } from "~/components/ui/choice-group";
import { ErrorSummary, refusal } from "~/components/ui/error-summary";
import { Field, FileField, FormKeyInput, SelectField } from "~/components/ui/form-field";
import { labelFields, type LabelledField } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { legalDocumentPath } from "~/lib/external-links";
import { HOLDER_KINDS, IDENTIFICATION_TYPES, type HolderKind } from "~/registration/holder";
import { REGISTRATION_PATH } from "~/registration/paths";
import {
  HOLDER_KIND_PARAM,
  REGISTRATION_INTENTS,
  registrationFormSchema,
} from "~/registration/registration-form";
import { KEPT_REGISTRATION_DATA, REGISTRATION_RULES } from "~/registration/registration-rules";

const linkClass = "font-medium text-secondary underline underline-offset-4";

/** The fields each kind of holder is asked for, in page order. */
const KIND_FIELDS: Record<HolderKind, readonly string[]> = {
  fisica: ["full_name", "curp", "identification_type", "document_number"],
  extranjera: ["full_name", "passport_number", "nationality", "curp"],
  moral: [
    "business_name",
    "rfc",
    "representative_name",
    "representative_curp",
    "representative_identification_type",
    "document_number",
  ],
};

/** Any image the camera gives ("image/*" lets a phone offer it); the form then checks the type. */
const ID_IMAGE_ACCEPT = "image/*";

/** What every kind of holder uploads: the identification's photo and a selfie (decision 0136). */
const EVIDENCE_FIELDS = ["id_photo", "selfie"] as const;

/**
 * The identification's photo and the selfie (decision 0136), with the camera offered on a phone:
 * here and where an order's holder shows their identification (decision 0139).
 */
export function EvidenceFields({
  field,
  passport,
}: {
  field: Record<(typeof EVIDENCE_FIELDS)[number], LabelledField>;
  /** A foreigner's passport rather than a Mexican identification. */
  passport: boolean;
}) {
  const { t } = useTranslation("registration");
  return (
    <>
      <FileField
        {...field.id_photo}
        hint={passport ? t("holder.passportPhotoHint") : t("holder.idPhotoHint")}
        accept={ID_IMAGE_ACCEPT}
        capture="environment"
      />
      <FileField
        {...field.selfie}
        hint={t("holder.selfieHint")}
        accept={ID_IMAGE_ACCEPT}
        capture="user"
      />
    </>
  );
}

function kindPath(kind: HolderKind): string {
  return `${REGISTRATION_PATH}?${HOLDER_KIND_PARAM}=${kind}`;
}

/**
 * Who holds the line: three links (no JavaScript needed) that show the fields of a persona
 * física, a persona extranjera or a company.
 */
function HolderKindLinks({ kind }: { kind: HolderKind }) {
  const { t } = useTranslation("registration");
  return (
    <nav aria-labelledby="holder-kind-legend" data-testid="holder-kinds">
      <p id="holder-kind-legend" className="mb-2 text-xl font-bold text-slate-900">
        {t("holder.kindLegend")}
      </p>
      <ul className="grid gap-3 sm:grid-cols-3">
        {HOLDER_KINDS.map((choice) => (
          <li key={choice}>
            <Link
              to={kindPath(choice)}
              aria-current={choice === kind ? "true" : undefined}
              replace
              preventScrollReset
              className="block rounded-lg border border-slate-300 bg-white px-4 py-3 font-semibold text-slate-900 hover:border-primary aria-[current=true]:border-primary aria-[current=true]:bg-primary-soft"
            >
              {t(`holderKinds.${choice}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** What the registration keeps, and why, with the privacy notice (here and at checkout). */
export function KeptData() {
  const { t } = useTranslation("registration");
  return (
    <section aria-labelledby="kept-heading" className="rounded-lg bg-slate-50 px-4 py-3">
      <h3 id="kept-heading" className="font-bold text-slate-900">
        {t("holder.keptHeading")}
      </h3>
      <p className="mt-1 text-sm text-slate-800">{t("holder.keptIntro")}</p>
      <ul className="mt-1 list-disc pl-5 text-sm text-slate-800" data-testid="kept-data">
        {KEPT_REGISTRATION_DATA.map((item) => (
          <li key={item}>{t(`kept.${item}`)}</li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-800">{t("holder.keptNoImages")}</p>
      <p className="mt-2 text-sm">
        <a
          href={legalDocumentPath("aviso-de-privacidad")}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClass}
        >
          {t("holder.privacy")} <span className="sr-only">{t("holder.opensPdf")}</span>
        </a>
      </p>
    </section>
  );
}

/** The identifications a persona física can present, as radio choices. */
export function useIdentificationChoices() {
  const { t } = useTranslation("registration");
  return IDENTIFICATION_TYPES.map((type) => ({
    value: type,
    label: t(`identificationTypes.${type}`),
  }));
}

type PersonField = "full_name" | "curp" | "identification_type" | "passport_number" | "nationality";

/**
 * A person's fields: a persona física's (name, CURP, identification) or a persona extranjera's
 * (name, passport, nationality, CURP temporal). `both` shows every field, each kind's own marked
 * (`data-holder-only`) for the page's CSS to hide while the other kind is chosen: the checkout
 * asks the kind in the same form, which must work without JavaScript.
 */
export function PersonFields({
  kind,
  field,
  countries,
  hints = {},
}: {
  kind: "fisica" | "extranjera" | "both";
  field: Record<PersonField, LabelledField>;
  countries: Array<{ value: string; label: string }>;
  hints?: Partial<Record<PersonField, string>>;
}) {
  const { t } = useTranslation("registration");
  const identificationChoices = useIdentificationChoices();
  const curpHint =
    hints.curp ?? (kind === "extranjera" ? t("holder.curpTemporalHint") : t("holder.curpHint"));
  const fisica = (
    <ChoiceGroup
      {...field.identification_type}
      choices={identificationChoices}
      columns="sm:grid-cols-1"
      legendSize="label"
    />
  );
  const extranjera = (
    <>
      <Field {...field.passport_number} autoComplete="off" />
      <SelectField
        {...field.nationality}
        placeholder={t("holder.nationalityPlaceholder")}
        options={countries}
      />
    </>
  );
  return (
    <>
      <Field
        {...field.full_name}
        hint={hints.full_name ?? t("holder.fullNameHint")}
        autoComplete={kind === "both" ? "off" : "name"}
      />
      {kind === "extranjera" ? extranjera : null}
      <Field {...field.curp} hint={curpHint} autoComplete="off" />
      {kind === "fisica" ? fisica : null}
      {kind === "both" ? (
        <>
          <div data-holder-only="fisica">{fisica}</div>
          <div data-holder-only="extranjera" className="space-y-5">
            {extranjera}
          </div>
        </>
      ) : null}
    </>
  );
}

/** The holder's form: the fields of the kind chosen, an e-mail for the folio, and what is kept. */
export function HolderForm({
  kind,
  number,
  idempotencyKey,
  lastResult,
  countries,
}: {
  kind: HolderKind;
  /** The proved number, as the page writes it. */
  number: string;
  idempotencyKey: string;
  lastResult: SubmissionResult<string[]> | undefined;
  countries: Array<{ value: string; label: string }>;
}) {
  const { t } = useTranslation("registration");
  const [form, fields] = useForm({
    id: `registration-holder-${kind}`,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registrationFormSchema }),
  });
  const identificationChoices = useIdentificationChoices();
  const { field, summary: allFields } = labelFields(fields, {
    full_name: t("holder.fullName"),
    business_name: t("holder.businessName"),
    rfc: t("holder.rfc"),
    representative_name: t("holder.representativeName"),
    representative_curp: t("holder.representativeCurp"),
    representative_identification_type: t("holder.representativeIdentificationType"),
    passport_number: t("holder.passportNumber"),
    nationality: t("holder.nationality"),
    curp: kind === "extranjera" ? t("holder.curpTemporal") : t("holder.curp"),
    identification_type: t("holder.identificationType"),
    document_number:
      kind === "moral" ? t("holder.representativeDocumentNumber") : t("holder.documentNumber"),
    id_photo: kind === "extranjera" ? t("holder.passportPhoto") : t("holder.idPhoto"),
    selfie: t("holder.selfie"),
    email: t("holder.email"),
  });
  const shown = new Set<string>([...KIND_FIELDS[kind], ...EVIDENCE_FIELDS, "email"]);
  const summary = allFields.filter((entry) => shown.has(entry.meta.name));
  return (
    <section aria-labelledby="holder-heading" className="max-w-2xl space-y-6">
      <div>
        <h2 id="holder-heading" className="text-2xl font-bold text-slate-900">
          {t("holder.heading", { number })}
        </h2>
        <p className="mt-1 text-slate-800">{t("holder.provedFor")}</p>
      </div>
      <HolderKindLinks kind={kind} />
      <Form
        method="post"
        encType="multipart/form-data"
        action={kindPath(kind)}
        {...getFormProps(form)}
        className="space-y-5"
        data-testid="holder-form"
      >
        <ErrorSummary
          refused={refusal(lastResult)}
          formErrors={form.errors}
          heading="registration:holder.errorSummary"
          fields={summary}
        />
        <FormKeyInput meta={fields.idempotency_key} issued={idempotencyKey} />
        <input type="hidden" name="holder_kind" value={kind} />
        {kind === "moral" ? (
          <>
            <Field {...field.business_name} autoComplete="organization" />
            <Field {...field.rfc} hint={t("holder.rfcHint")} autoComplete="off" />
            <Field {...field.representative_name} autoComplete="name" />
            <Field {...field.representative_curp} hint={t("holder.curpHint")} autoComplete="off" />
            <ChoiceGroup
              {...field.representative_identification_type}
              choices={identificationChoices}
              columns="sm:grid-cols-1"
              legendSize="label"
            />
          </>
        ) : (
          <PersonFields kind={kind} field={field} countries={countries} />
        )}
        {kind === "extranjera" ? null : (
          <Field
            {...field.document_number}
            hint={t("holder.documentNumberHint")}
            autoComplete="off"
          />
        )}
        <EvidenceFields field={field} passport={kind === "extranjera"} />
        <Field
          {...field.email}
          type="email"
          inputMode="email"
          autoComplete="email"
          hint={t("holder.emailHint")}
        />
        <KeptData />
        <p className="text-sm text-slate-700">
          {t("holder.attemptsNote", { count: REGISTRATION_RULES.onlineAttempts })}
        </p>
        <SubmitButton
          name="intent"
          value={REGISTRATION_INTENTS.register}
          size="lg"
          width="blockOnPhone"
          pendingLabel={t("holder.submitting")}
        >
          {t("holder.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}
