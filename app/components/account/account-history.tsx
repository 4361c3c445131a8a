import { Link } from "react-router";
import { formatTotal } from "~/catalog/money";
import { DataTable } from "~/components/ui/data-table";
import { useTranslation } from "~/i18n/react";
import type { AccountHistory } from "~/account/history.server";
import { buttonClass } from "~/components/ui/button";
import { statusText } from "~/components/portability/request-details";
import { PORTABILITY_PATH } from "~/portability/paths";

const card = "rounded-lg border border-slate-200 p-6";
const linkClass = "font-medium text-secondary underline underline-offset-4";

/**
 * The customer's activity on the account overview: a call to top up, the saved lines, recent
 * top-ups and orders (newest first), each linking to its receipt or confirmation.
 */
export function AccountHistorySection({ history }: { history: AccountHistory }) {
  const { t } = useTranslation("topup");
  const { t: portabilityT } = useTranslation("portability");
  return (
    <div className="mt-8 grid gap-6 md:grid-cols-2" data-testid="account-history">
      <section
        className={`${card} border-primary bg-primary-soft`}
        aria-labelledby="account-topup-cta"
      >
        <h2 id="account-topup-cta" className="text-xl font-bold text-slate-900">
          {t("history.ctaHeading")}
        </h2>
        <p className="mt-2 text-slate-800">{t("history.ctaLead")}</p>
        <Link to="/my-account/recarga" className={`mt-4 ${buttonClass({ size: "lg" })}`}>
          {t("history.cta")}
        </Link>
      </section>

      <section className={card} aria-labelledby="account-lines">
        <h2 id="account-lines" className="text-xl font-bold text-slate-900">
          {t("history.linesHeading")}
        </h2>
        {history.maskedLines.length ? (
          <ul className="mt-3 space-y-1" data-testid="account-lines">
            {history.maskedLines.map((line) => (
              <li key={line} className="font-mono text-slate-900">
                {line}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-slate-700">{t("history.linesEmpty")}</p>
        )}
      </section>

      <section className={`${card} md:col-span-2`} aria-labelledby="account-topups">
        <h2 id="account-topups" className="text-xl font-bold text-slate-900">
          {t("history.topupsHeading")}
        </h2>
        {history.topups.length ? (
          <DataTable
            className="mt-3"
            testId="account-topups"
            rowTestId="account-topup"
            rows={history.topups}
            rowKey={(topup) => topup.folio}
            columns={[
              {
                header: t("history.columns.folio"),
                cell: (topup) => (
                  <Link
                    to={topup.href}
                    className={linkClass}
                    aria-label={t("history.viewReceipt", { folio: topup.folio })}
                  >
                    {topup.folio}
                  </Link>
                ),
              },
              { header: t("history.columns.date"), cell: (topup) => topup.date },
              {
                header: t("history.columns.line"),
                cell: (topup) => topup.maskedLine,
                className: "font-mono",
              },
              { header: t("history.columns.amount"), cell: (topup) => formatTotal(topup.amount) },
              {
                header: t("history.columns.status"),
                cell: (topup) => t(`receipt.statuses.${topup.status}`),
              },
            ]}
          />
        ) : (
          <p className="mt-3 text-slate-700">{t("history.topupsEmpty")}</p>
        )}
      </section>

      <section className={`${card} md:col-span-2`} aria-labelledby="account-portability">
        <h2 id="account-portability" className="text-xl font-bold text-slate-900">
          {t("history.portabilityHeading")}
        </h2>
        {history.portability.length ? (
          <DataTable
            className="mt-3"
            testId="account-portability"
            rowTestId="account-portability-request"
            rows={history.portability}
            rowKey={(request) => request.folio}
            columns={[
              { header: t("history.columns.folio"), cell: (request) => request.folio },
              { header: t("history.columns.date"), cell: (request) => request.date },
              {
                header: t("history.columns.line"),
                cell: (request) => request.maskedLine,
                className: "font-mono",
              },
              {
                header: t("history.columns.status"),
                cell: (request) => statusText(request, portabilityT),
              },
            ]}
          />
        ) : (
          <p className="mt-3 text-slate-700">
            {t("history.portabilityEmpty")}{" "}
            <Link to={PORTABILITY_PATH} className={linkClass}>
              {t("history.portabilityStart")}
            </Link>
          </p>
        )}
      </section>

      <section className={`${card} md:col-span-2`} aria-labelledby="account-orders">
        <h2 id="account-orders" className="text-xl font-bold text-slate-900">
          {t("history.ordersHeading")}
        </h2>
        {history.orders.length ? (
          <DataTable
            className="mt-3"
            testId="account-orders"
            rowTestId="account-order"
            rows={history.orders}
            rowKey={(order) => order.folio}
            columns={[
              {
                header: t("history.columns.folio"),
                cell: (order) => (
                  <Link
                    to={order.href}
                    className={linkClass}
                    aria-label={t("history.viewOrder", { folio: order.folio })}
                  >
                    {order.folio}
                  </Link>
                ),
              },
              { header: t("history.columns.date"), cell: (order) => order.date },
              { header: t("history.columns.total"), cell: (order) => formatTotal(order.total) },
              {
                header: t("history.columns.status"),
                cell: (order) => t(`history.orderStatuses.${order.status}`),
              },
            ]}
          />
        ) : (
          <p className="mt-3 text-slate-700">{t("history.ordersEmpty")}</p>
        )}
      </section>
    </div>
  );
}
