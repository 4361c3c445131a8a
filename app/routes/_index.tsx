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
