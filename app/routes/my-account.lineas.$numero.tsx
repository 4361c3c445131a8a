import { type LoaderFunctionArgs, Link, useLoaderData } from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { formatTotal } from "~/catalog/money";
import { AutoTopupSummaryView } from "~/components/auto-topup/auto-topup-summary";
import { LineFiguresView } from "~/components/line/line-figures";
import { LineRegistrationState } from "~/components/activation/line-activation";
import { RegisterLineLink } from "~/components/line/register-line-link";
import { UsageChart } from "~/components/line/usage-chart";
import { Alert } from "~/components/ui/alert";
import { DataTable } from "~/components/ui/data-table";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import { titleMeta } from "~/lib/meta";
import { loadLinePage } from "~/line/line-pages.server";
import { formatLineNumber } from "~/line/line-view";
import { LINES_PATH, topupLinePath } from "~/line/paths";
import { requestContext } from "~/lib/router-context.server";

/** A function of its loaders' data alone: the render memo may keep it (server/html-caches.ts). */
export const handle = { i18n: ["line", "activation"], renderMemo: true };

export const meta = titleMeta;

/**
 * One line of the account: its figures, its usage by day for 30 days and its last top-ups. Only
 * a line of this account opens; any other number is the site's 404.
 */
export function loader({ request, context: routerContext, params }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  return loadLinePage(context, customer, params.numero);
}

const linkClass = "font-medium text-secondary underline underline-offset-4";

export default function LinePage() {
  const { number, figures, registration, autoTopup, autoTopupPath, usage, topups } =
    useLoaderData<typeof loader>();
  const { t } = useTranslation("line");
  return (
    <>
      <p className="mb-4">
        <Link to={LINES_PATH} className={linkClass}>
          {t("page.back")}
        </Link>
      </p>
      <PageHeader title={t("page.heading", { number: formatLineNumber(number) })} />
      <LineFiguresView figures={figures} topUpTo={topupLinePath(number)} />
      {registration ? (
        <div className="mt-6 max-w-3xl">
          <LineRegistrationState registration={registration} />
        </div>
      ) : null}
      <RegisterLineLink />
      <AutoTopupSummaryView summary={autoTopup} settingsPath={autoTopupPath} />
      <section className="mt-10" aria-labelledby="line-usage">
        <h2 id="line-usage" className="mb-4 text-2xl font-bold text-slate-900">
          {t("page.usageHeading")}
        </h2>
        {usage.state === "shown" ? (
          <UsageChart days={usage.days} from={usage.from} to={usage.to} />
        ) : (
          <Alert testId="usage-unavailable">{t("page.usageUnavailable")}</Alert>
        )}
      </section>
      <section className="mt-10" aria-labelledby="line-topups">
        <h2 id="line-topups" className="mb-4 text-2xl font-bold text-slate-900">
          {t("page.topupsHeading")}
        </h2>
        {topups.length ? (
          <DataTable
            caption={t("page.topupsCaption")}
            testId="line-topups"
            rowTestId="line-topup"
            rows={topups}
            rowKey={(topup) => topup.folio}
            columns={[
              { header: t("page.topupDate"), cell: (topup) => formatDateTime(topup.paidAt) },
              { header: t("page.topupAmount"), cell: (topup) => formatTotal(topup.amount) },
              {
                header: t("page.topupFolio"),
                cell: (topup) =>
                  topup.receipt ? (
                    <Link to={topup.receipt} className={linkClass}>
                      {topup.folio}
                    </Link>
                  ) : (
                    topup.folio
                  ),
                className: "font-mono",
              },
            ]}
          />
        ) : (
          <p className="text-slate-800">{t("page.topupsEmpty")}</p>
        )}
      </section>
    </>
  );
}
