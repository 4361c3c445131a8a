import type { Plan } from "~/catalog/plan";
import { formatCount, formatPrice } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";

/**
 * Every listed plan side by side: a real table (a row header per plan, a column header per
 * feature) that scrolls sideways inside its own box on a phone, so the page itself never does.
 * No JavaScript: the box is focusable, so a keyboard can scroll it too.
 */
export function PlanComparison({ plans }: { plans: readonly Plan[] }) {
  const { t } = useTranslation("commerce");
  const yesNo = (value: boolean) => (value ? t("plans.compare.yes") : t("plans.compare.no"));
  const countries = (plan: Plan) =>
    (["mexico", "usa", "canada"] as const)
      .filter((country) => plan.coverage[country])
      .map((country) => t(`plan.countries.${country}`))
      .join(", ");
  const sim = (plan: Plan) =>
    plan.simTypes.length === 2
      ? t("plans.compare.simBoth")
      : plan.simTypes[0] === "esim"
        ? t("plans.compare.simEsim")
        : t("plans.compare.simPhysical");
  const columns = [
    "price",
    "data",
    "validity",
    "calls",
    "coverage",
    "social",
    "hotspot",
    "sim",
  ] as const;
  const cell = "border-t border-slate-200 px-3 py-2 align-top";
  return (
    <div className="mt-12" data-testid="plan-comparison">
      <h2 id="plans-compare" className="text-2xl font-bold text-slate-900">
        {t("plans.compare.heading")}
      </h2>
      <p className="mb-4 mt-1 text-slate-700">{t("plans.compare.intro")}</p>
      <div
        className="max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white"
        role="region"
        aria-labelledby="plans-compare"
        tabIndex={0}
        data-testid="plan-comparison-scroller"
      >
        <table className="w-full min-w-[56rem] border-collapse text-left text-sm">
          <caption className="sr-only">{t("plans.compare.caption")}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th
                scope="col"
                className="sticky left-0 bg-slate-50 px-3 py-2 font-semibold text-slate-900"
              >
                {t("plans.compare.columns.plan")}
              </th>
              {columns.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 font-semibold text-slate-900">
                  {t(`plans.compare.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {plans.map((plan) => (
              <tr key={plan.id} data-testid="comparison-row">
                <th
                  scope="row"
                  className={`${cell} sticky left-0 whitespace-nowrap bg-white font-bold text-primary-dark`}
                >
                  {plan.name}
                </th>
                <td className={`${cell} whitespace-nowrap font-semibold text-slate-900`}>
                  {formatPrice(plan.price)}
                </td>
                <td className={`${cell} whitespace-nowrap`}>
                  {t("plans.compare.dataGb", { count: plan.dataGb })}
                </td>
                <td className={`${cell} whitespace-nowrap`}>
                  {t("plans.compare.days", { count: plan.validityDays })}
                </td>
                <td className={cell}>
                  {plan.minutes === null && plan.sms === null
                    ? t("plans.compare.unlimited")
                    : t("plans.compare.minutesSms", {
                        minutes: formatCount(plan.minutes ?? 0),
                        sms: formatCount(plan.sms ?? 0),
                      })}
                </td>
                <td className={cell}>{countries(plan)}</td>
                <td className={cell}>
                  {plan.unlimitedSocial
                    ? plan.socialNetworks.join(", ")
                    : t("plans.compare.noSocial")}
                </td>
                <td className={cell}>{yesNo(plan.hotspot)}</td>
                <td className={`${cell} whitespace-nowrap`}>{sim(plan)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
