import { Link } from "react-router";
import { PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import { type DetailsRow, DetailsList } from "~/components/ui/details-list";
import { useTranslation } from "~/i18n/react";
import type { TFunction } from "~/i18n/translate";
import { formatDate, formatDateTime } from "~/lib/dates";
import { carrierLabel } from "~/portability/display";
import type { RequestView } from "~/portability/request-view";

/** "Programada para el 3 de diciembre de 2026", "Rechazada: <motivo>", or the status alone. */
export function statusText(
  request: Pick<RequestView, "status" | "scheduledFor"> &
    Partial<Pick<RequestView, "rejectionReason">>,
  t: TFunction,
): string {
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
  const rows: DetailsRow[] = [
    { label: t("result.folio"), value: request.folio, testId: "portability-folio" },
    { label: t("result.status"), value: statusText(request, t), testId: "portability-status" },
    { label: t("result.line"), value: request.line, testId: "portability-line" },
    {
      label: t("result.carrier"),
      value: carrierLabel(request.carrier, t("form.otherCarrier")),
      testId: "portability-carrier",
    },
    {
      label: t("result.createdAt"),
      value: formatDateTime(request.createdAt),
      testId: "portability-created",
    },
  ];
  return <DetailsList rows={rows} testId={testId} />;
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
        {/* A request filed with an order may be opened from its page once it moved on. */}
        {request.status === "received" ? t("result.heading") : t("lookup.resultHeading")}
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
