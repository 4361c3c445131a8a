import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PlanCard } from "~/components/commerce/plan-card";
import { PageHeader } from "~/components/ui/page-header";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";

/** Nothing personal without the app\'s cookies: the page cache may keep it (server.ts). */
export const handle = { i18n: ["commerce"], pageCache: true };

// The home page has no page title of its own: the tab shows the app title alone.
export const meta = titleMeta;

/** The journeys customers come for besides buying a plan. */
const SHORTCUTS = [
  { key: "topUp", to: "/recarga" },
  { key: "portability", to: "/portabilidad" },
  { key: "esim", to: "/plans?sim_type=esim" },
] as const;

export function loader({ context }: LoaderFunctionArgs) {
  return { plans: context.catalogue.plans() };
}

export default function HomePage() {
  const { plans } = useLoaderData<typeof loader>();
  const { t } = useTranslation("commerce");
  return (
    <>
      <PageHeader title={t("common:pages.home.heading")}>
        <p>{t("common:app.tagline")}</p>
        <p className="mt-2 text-base">{t("home.intro")}</p>
      </PageHeader>
      <section aria-labelledby="home-shortcuts" className="mb-10">
        <h2 id="home-shortcuts" className="sr-only">
          {t("home.shortcutsHeading")}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3" data-testid="home-shortcuts">
          {SHORTCUTS.map(({ key, to }) => (
            <li key={key} className="rounded-lg border border-slate-200 bg-white p-5">
              <h3 className="text-lg font-bold text-slate-900">
                {t(`home.shortcuts.${key}.title`)}
              </h3>
              <p className="mt-1 text-slate-800">{t(`home.shortcuts.${key}.text`)}</p>
              <Link
                to={to}
                prefetch="intent"
                className="mt-3 inline-block font-semibold text-secondary underline underline-offset-4"
              >
                {t(`home.shortcuts.${key}.link`)}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="home-plans">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="home-plans" className="text-2xl font-bold text-slate-900">
            {t("home.plansHeading")}
          </h2>
          <Link
            to="/plans"
            prefetch="intent"
            className="font-semibold text-secondary underline underline-offset-4"
          >
            {t("home.allPlans")}
          </Link>
        </div>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} redirectTo="/" headingLevel={3} />
          ))}
        </div>
      </section>
    </>
  );
}
