import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { Field, SelectField } from "~/components/ui/form-field";
import { labelFields } from "~/components/ui/labelled-fields";
import { useTranslation } from "~/i18n/react";
import { MEXICAN_STATES } from "~/lib/mexican-states";
import type { PointsSearchAnswer } from "~/points-of-service/points-page.server";
import { POINT_SERVICES, type PointOfService } from "~/points-of-service/points-of-service";
import { pointsSearchSchema } from "~/points-of-service/points-search";
import { ASSISTED_VALIDATION_PATH, POINTS_OF_SERVICE_PATH } from "~/registration/paths";

/** The search by postal code or state, a plain GET form that works without JavaScript. */
export function PointsSearchForm({
  search,
  presetService,
}: {
  search: PointsSearchAnswer | null;
  /** The service chosen by the link that led here (the registration's: "registro-de-linea"). */
  presetService: string | null;
}) {
  const { t } = useTranslation("registration");
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "buscar-puntos",
    lastResult: search?.result,
    defaultValue: presetService ? { servicio: presetService } : undefined,
    constraint: getZodConstraint(pointsSearchSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pointsSearchSchema }),
  });
  const { field } = labelFields(fields, {
    cp: t("places.postalCode"),
    estado: t("places.state"),
    servicio: t("places.service"),
  });
  const searching =
    navigation.state === "loading" &&
    navigation.formMethod === "GET" &&
    navigation.location.pathname === POINTS_OF_SERVICE_PATH;
  return (
    <section aria-labelledby="buscar-puntos-titulo" className="max-w-3xl">
      <h2 id="buscar-puntos-titulo" className="text-2xl font-bold text-slate-900">
        {t("places.searchHeading")}
      </h2>
      <Form
        method="get"
        action={POINTS_OF_SERVICE_PATH}
        {...getFormProps(form)}
        className="mt-4 grid items-start gap-5 sm:grid-cols-2"
        data-testid="points-search"
      >
        <Field
          {...field.cp}
          inputMode="numeric"
          autoComplete="postal-code"
          hint={t("places.postalCodeHint")}
          className="sm:col-span-2"
        />
        <SelectField
          {...field.estado}
          placeholder={t("places.anyState")}
          options={MEXICAN_STATES.map((code) => ({
            value: code,
            label: t(`commerce:states.${code}`),
          }))}
        />
        <SelectField
          {...field.servicio}
          placeholder={t("places.anyService")}
          options={POINT_SERVICES.map((service) => ({
            value: service,
            label: t(`places.serviceNames.${service}`),
          }))}
        />
        <SubmitButton
          variant="secondary"
          width="blockOnPhone"
          pending={searching}
          pendingLabel={t("places.submitting")}
        >
          {t("places.submit")}
        </SubmitButton>
      </Form>
    </section>
  );
}

function PointCard({ point }: { point: PointOfService }) {
  const { t } = useTranslation("registration");
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-5 wrap-anywhere"
      data-testid="point-of-service"
    >
      <h3 className="text-lg font-bold text-slate-900">{point.name}</h3>
      <dl className="mt-2 space-y-1 text-slate-800">
        <div>
          <dt className="sr-only">{t("places.address")}</dt>
          <dd>
            {point.address}, {t("places.postalCodeShort", { postalCode: point.postalCode })},{" "}
            {t(`commerce:states.${point.state}`)}
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">{t("places.hours")}: </dt>
          <dd className="inline">{point.hours}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">{t("places.services")}: </dt>
          <dd className="inline">
            {point.services.map((service) => t(`places.serviceNames.${service}`)).join(", ")}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** What the search found, and how it relates to what was asked. */
export function PointsResults({
  search,
  postalCode,
  state,
}: {
  search: PointsSearchAnswer;
  postalCode: string | null;
  state: string | null;
}) {
  const { t } = useTranslation("registration");
  if (search.points === null) return null;
  const count = search.points.length;
  let summary: string;
  if (count === 0) summary = t("places.none");
  else if (search.by === "postal-code" && search.match === "closest")
    summary = t("places.foundClosest", { postalCode });
  else if (search.by === "postal-code") summary = t("places.foundZone", { count, postalCode });
  else summary = t("places.foundState", { count, state: t(`commerce:states.${state}`) });
  return (
    <section aria-labelledby="resultados-puntos" className="mt-10 max-w-3xl">
      <h2 id="resultados-puntos" className="text-2xl font-bold text-slate-900">
        {t("places.resultsHeading")}
      </h2>
      <p className="mt-2 text-slate-800" role="status" data-testid="points-summary">
        {summary}
      </p>
      {count > 0 ? (
        <ul className="mt-4 space-y-4" data-testid="points-found">
          {search.points.map((point) => (
            <PointCard key={point.id} point={point} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The points' page: the sample's notice, the search, what it found, the online alternative. */
export function PointsPage({
  sample,
  search,
  presetService,
  postalCode,
  state,
}: {
  sample: boolean;
  presetService: string | null;
  search: PointsSearchAnswer | null;
  postalCode: string | null;
  state: string | null;
}) {
  const { t } = useTranslation("registration");
  return (
    <>
      {sample ? (
        <Alert tone="info" className="mb-8 max-w-3xl" testId="points-sample">
          {t("places.sample")}
        </Alert>
      ) : null}
      <PointsSearchForm search={search} presetService={presetService} />
      {search ? <PointsResults search={search} postalCode={postalCode} state={state} /> : null}
      <section className="mt-10 max-w-3xl border-t border-slate-200 pt-6">
        <p className="text-slate-800">{t("places.bring")}</p>
        <p className="mt-2 text-slate-800">{t("places.assistedLead")}</p>
        <Link
          to={ASSISTED_VALIDATION_PATH}
          className={`${buttonClass({ variant: "outline", width: "blockOnPhone" })} mt-4`}
        >
          {t("places.assisted")}
        </Link>
      </section>
    </>
  );
}
