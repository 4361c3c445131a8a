import { Link } from "@remix-run/react";
import { formatMoney } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";
import type { AccountHistory } from "~/topup/history.server";
import { buttonClass } from "~/components/ui/button";

const card = "rounded-lg border border-slate-200 p-6";
const linkClass = "font-medium text-secondary underline underline-offset-4";

/**
 * The customer's activity on the account overview: a call to top up, the saved lines, recent
 * top-ups and orders (newest first), each linking to its receipt or confirmation.
 */
export function AccountHistorySection({ history }: { history: AccountHistory }) {
  const { t } = useTranslation("topup");
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
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left" data-testid="account-topups">
              <thead>
                <tr className="border-b border-slate-300 text-sm text-slate-700">
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.folio")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.date")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.line")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.amount")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("history.columns.status")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.topups.map((topup) => (
                  <tr
                    key={topup.folio}
                    className="border-b border-slate-200"
                    data-testid="account-topup"
                  >
                    <td className="py-2 pr-4">
                      <Link
                        to={topup.href}
                        className={linkClass}
                        aria-label={t("history.viewReceipt", { folio: topup.folio })}
                      >
                        {topup.folio}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{topup.date}</td>
                    <td className="py-2 pr-4 font-mono">{topup.maskedLine}</td>
                    <td className="py-2 pr-4">{formatMoney(topup.amount)}</td>
                    <td className="py-2">{t(`receipt.statuses.${topup.status}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-3 text-slate-700">{t("history.topupsEmpty")}</p>
        )}
      </section>

      <section className={`${card} md:col-span-2`} aria-labelledby="account-orders">
        <h2 id="account-orders" className="text-xl font-bold text-slate-900">
          {t("history.ordersHeading")}
        </h2>
        {history.orders.length ? (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left" data-testid="account-orders">
              <thead>
                <tr className="border-b border-slate-300 text-sm text-slate-700">
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.folio")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.date")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("history.columns.total")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("history.columns.status")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.orders.map((order) => (
                  <tr
                    key={order.folio}
                    className="border-b border-slate-200"
                    data-testid="account-order"
                  >
                    <td className="py-2 pr-4">
                      <Link
                        to={order.href}
                        className={linkClass}
                        aria-label={t("history.viewOrder", { folio: order.folio })}
                      >
                        {order.folio}
                      </Link>
                    </td>
                    <td className="py-2 pr-4">{order.date}</td>
                    <td className="py-2 pr-4">{formatMoney(order.total)}</td>
                    <td className="py-2">{t(`history.orderStatuses.${order.status}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-3 text-slate-700">{t("history.ordersEmpty")}</p>
        )}
      </section>
    </div>
  );
}
