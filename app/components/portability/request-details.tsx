import { Link } from "@remix-run/react";
import { PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import { useTranslation } from "~/i18n/react";
import type { TFunction } from "~/i18n/translate";
import { formatDate, formatDateTime } from "~/lib/dates";
import { carrierLabel } from "~/portability/display";
import type { RequestView } from "~/portability/request-view";

/** "Programada para el 3 de diciembre de 2026", "Rechazada: <motivo>", or the status alone. */
function statusText(request: RequestView, t: TFunction): string {
  if (request.status === "in_progress" && request.scheduledFor) {
    // Noon in Mexico City: the date reads the same whatever the time zone.
    return t("status.scheduledFor", { date: formatDate(`${request.scheduledFor}T18:00:00.000Z`) });
  }
  if (request.status === "rejected" && request.rejectionReason) {
    return t("status.rejectedBecause", { reason: request.rejectionReason });
  }
  return t(`status.${request.status}`);
}

/** A request's folio, status, masked line, carrier and date. */
export function RequestDetails({ request, testId }: { request: RequestView; testId: string }) {
  const { t } = useTranslation("portability");
  const rows: Array<[string, string, string]> = [
    [t("result.folio"), request.folio, "portability-folio"],
    [t("result.status"), statusText(request, t), "portability-status"],
    [t("result.line"), request.line, "portability-line"],
    [
      t("result.carrier"),
      carrierLabel(request.carrier, t("form.otherCarrier")),
      "portability-carrier",
    ],
    [t("result.createdAt"), formatDateTime(request.createdAt), "portability-created"],
  ];
  return (
    <dl data-testid={testId} className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
      {rows.map(([label, value, id]) => (
        <div key={id} className="contents">
          <dt className="font-semibold text-slate-700">{label}</dt>
          <dd className="min-w-0 wrap-anywhere text-slate-900" data-testid={id}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The request this browser just submitted, with what happens next. */
export function SubmittedRequest({ request }: { request: RequestView }) {
  const { t } = useTranslation("portability");
  return (
    <section
      aria-labelledby="solicitud-recibida"
      className="rounded-lg border border-primary bg-primary-soft p-6"
    >
      <h2 id="solicitud-recibida" className="text-2xl font-bold text-slate-900">
        {t("result.heading")}
      </h2>
      <RequestDetails request={request} testId="portability-result" />
      <h3 className="mt-6 text-lg font-bold text-slate-900">{t("result.nextSteps")}</h3>
      <ol className="mt-2 list-decimal space-y-2 pl-6 text-slate-800">
        <li>{t("result.nextStep1")}</li>
        <li>
          {t("result.nextStep2", { email: request.email ?? "", hours: PORTABILITY_MAX_HOURS })}
        </li>
        <li>{t("result.nextStep3")}</li>
      </ol>
      <Link
        to="/portabilidad"
        className="mt-6 inline-block font-semibold text-secondary underline underline-offset-4"
      >
        {t("result.another")}
      </Link>
    </section>
  );
}
