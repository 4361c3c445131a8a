import { Link } from "react-router";
import { formatPrice } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";
import type { AutoTopupSummary } from "~/auto-topup/auto-topup-view.server";

const linkClass = "font-medium text-secondary underline underline-offset-4";

/** "$150 cuando tu paquete venza, con tu Visa terminada en 4242": what it does, in a sentence. */
export function AutoTopupRuleText({ summary }: { summary: AutoTopupSummary }) {
  const { t } = useTranslation("line");
  return (
    <>
      {t("autoTopup.rule", {
        amount: formatPrice(summary.amount),
        when: t(`autoTopup.when.${summary.when}`),
        card: summary.cardLabel ?? t("autoTopup.noCard"),
      })}{" "}
      {t("autoTopup.capText", { count: summary.monthlyMax, charged: summary.chargedThisMonth })}
    </>
  );
}

/**
 * The line's automatic top-up at a glance on its page (decision 0120): on, paused, stopped or
 * off, with the link to its settings.
 */
export function AutoTopupSummaryView({
  summary,
  settingsPath,
}: {
  summary: AutoTopupSummary | null;
  settingsPath: string;
}) {
  const { t } = useTranslation("line");
  const state = summary?.state ?? "off";
  return (
    <section className="mt-10 max-w-3xl" aria-labelledby="line-auto-topup">
      <h2 id="line-auto-topup" className="mb-2 text-2xl font-bold text-slate-900">
        {t("autoTopup.heading")}
      </h2>
      <div
        className="rounded-lg border border-slate-200 bg-white p-4"
        data-testid="auto-topup-summary"
        data-state={state}
      >
        <p className="font-semibold text-slate-900">{t(`autoTopup.state.${state}`)}</p>
        {summary && state !== "off" ? (
          <p className="mt-1 text-slate-800">
            <AutoTopupRuleText summary={summary} />
          </p>
        ) : null}
        {summary?.stopReason ? (
          <p className="mt-1 text-slate-800">{t(`autoTopup.stopReason.${summary.stopReason}`)}</p>
        ) : null}
        {state === "off" ? <p className="mt-1 text-slate-800">{t("autoTopup.pitch")}</p> : null}
        <p className="mt-3">
          <Link to={settingsPath} className={linkClass} data-testid="auto-topup-settings">
            {state === "off" ? t("autoTopup.setUp") : t("autoTopup.change")}
          </Link>
        </p>
      </div>
    </section>
  );
}
