import { type LoaderFunctionArgs, Form, Link, useLoaderData } from "react-router";
import { sortByPrice } from "~/catalog/featured";
import { filterPlans, MIN_DATA_OPTIONS, parsePlanFilters, VALIDITY_OPTIONS } from "~/catalog/plan";
import { HOME_FEATURED } from "~/catalog/plans.data";
import { plansJsonLd } from "~/catalog/structured-data";
import { JsonLd } from "~/components/seo/json-ld";
import { PlanCard } from "~/components/commerce/plan-card";
import { PlanComparison } from "~/components/commerce/plan-comparison";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { shareMeta } from "~/lib/meta";
import { Button } from "~/components/ui/button";
import { requestContext } from "~/lib/router-context.server";

/**
 * Nothing personal without the app's cookies: the page caches may keep it; and a function of its
 * loaders' data alone: the render memo may too (server/html-caches.ts).
 */
export const handle = {
  i18n: ["commerce"],
  pageCache: true,
  renderMemo: true,
  query: ["validity_days", "min_data_gb", "sim_type"],
};

export const meta = shareMeta;

export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const filters = parsePlanFilters(url.searchParams);
  // Cheapest first (decision 0071): the cards and the comparison table read the same order.
  const plans = sortByPrice(filterPlans(context.catalogue.plans(), filters));
  return {
    title: getFixedT()("pages.plans.title"),
    description: getFixedT()("pages.plans.description"),
    filters,
    plans,
    structuredData: plansJsonLd(plans, context.config.publicOrigin, getFixedT()("app.title")),
    here: `${url.pathname}${url.search}`,
  };
}

const selectClass =
  "mt-1 block w-full rounded border border-slate-400 bg-white px-3 py-2 text-slate-900";

export default function PlansPage() {
  const { filters, plans, here, structuredData } = useLoaderData<typeof loader>();
  const { t } = useTranslation("commerce");
  return (
    <>
      {plans.length > 0 ? <JsonLd data={structuredData} /> : null}
      <PageHeader title={t("common:pages.plans.heading")}>{t("plans.intro")}</PageHeader>
      <Form
        method="get"
        className="mb-6 rounded-lg border border-slate-200 bg-slate-50 p-4"
        role="search"
      >
        <fieldset className="grid gap-4 sm:grid-cols-4 sm:items-end">
          <legend className="mb-2 text-lg font-bold text-slate-900">
            {t("plans.filters.legend")}
          </legend>
          <div>
            <label htmlFor="validity_days" className="block font-semibold">
              {t("plans.filters.validity")}
            </label>
            <select
              id="validity_days"
              name="validity_days"
              defaultValue={filters.validityDays ?? ""}
              className={selectClass}
            >
              <option value="">{t("plans.filters.validityAny")}</option>
              {VALIDITY_OPTIONS.map((days) => (
                <option key={days} value={days}>
                  {t("plans.filters.validityOption", { count: days })}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="min_data_gb" className="block font-semibold">
              {t("plans.filters.minData")}
            </label>
            <select
              id="min_data_gb"
              name="min_data_gb"
              defaultValue={filters.minDataGb ?? ""}
              className={selectClass}
            >
              <option value="">{t("plans.filters.minDataAny")}</option>
              {MIN_DATA_OPTIONS.map((gb) => (
                <option key={gb} value={gb}>
                  {t("plans.filters.minDataOption", { count: gb })}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="sim_type" className="block font-semibold">
              {t("plans.filters.simType")}
            </label>
            <select
              id="sim_type"
              name="sim_type"
              defaultValue={filters.simType ?? ""}
              className={selectClass}
            >
              <option value="">{t("plans.filters.simTypeAny")}</option>
              <option value="physical">{t("plans.filters.simTypePhysical")}</option>
              <option value="esim">{t("plans.filters.simTypeEsim")}</option>
            </select>
          </div>
          <div className="flex items-center gap-4">
            <Button type="submit" variant="secondary">
              {t("plans.filters.apply")}
            </Button>
            <Link to="/plans" className="font-medium text-secondary underline underline-offset-4">
              {t("plans.filters.reset")}
            </Link>
          </div>
        </fieldset>
      </Form>
      <p className="mb-4 font-medium text-slate-800" role="status" data-testid="plan-count">
        {t("plans.resultCount", { count: plans.length })}
      </p>
      {plans.length === 0 ? (
        <p className="rounded border border-slate-200 bg-white p-6 text-slate-800">
          {t("plans.empty")}
        </p>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              redirectTo={here}
              popular={plan.id === HOME_FEATURED.popularId}
            />
          ))}
        </div>
      )}
      {plans.length > 0 ? <PlanComparison plans={plans} /> : null}
    </>
  );
}
