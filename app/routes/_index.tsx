import { type LoaderFunctionArgs, Link, useLoaderData, useRouteLoaderData } from "react-router";
import { homeOffer } from "~/catalog/featured";
import { formatPrice } from "~/catalog/money";
import { HOME_FEATURED } from "~/catalog/plans.data";
import { plansJsonLd } from "~/catalog/structured-data";
import { JsonLd } from "~/components/seo/json-ld";
import { SHIPPING_PRICE, SIM_PRICE } from "~/catalog/terms";
import { CartActionForm } from "~/components/commerce/cart-action-form";
import { PlanCard } from "~/components/commerce/plan-card";
import { ExternalLink } from "~/components/layout/external-link";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { formatDay } from "~/lib/dates";
import { shareMeta } from "~/lib/meta";
import { REGISTRATION_PATH } from "~/registration/paths";
import { REGISTRATION_RULES } from "~/registration/registration-rules";
import type { ShellData } from "~/lib/shell";
import { requestContext } from "~/lib/router-context.server";

/**
 * Nothing personal without the app's cookies: the page caches may keep it; and a function of its
 * loaders' data alone: the render memo may too (server/html-caches.ts).
 */
export const handle = { i18n: ["commerce"], pageCache: true, renderMemo: true };

// The home page has no page title of its own: the tab shows the app title alone.
export const meta = shareMeta;

/** The journeys customers come for besides buying a plan. */
const SHORTCUTS = [
  { key: "topUp", to: "/recarga" },
  { key: "portability", to: "/portabilidad" },
  { key: "esim", to: "/plans?sim_type=esim" },
] as const;

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const offer = homeOffer(context.catalogue.plans(), HOME_FEATURED);
  return {
    description: getFixedT()("pages.home.description"),
    offer,
    // The plans the page shows, as search engines read them (decision 0141).
    structuredData: plansJsonLd(
      offer?.featured ?? [],
      context.config.publicOrigin,
      getFixedT()("app.title"),
    ),
    // Said only while the terms hold it (decision 0066): the plan's price is the whole price.
    freeSim: SIM_PRICE === 0 && SHIPPING_PRICE === 0,
  };
}

const linkClass = "font-semibold text-secondary underline underline-offset-4";

export default function HomePage() {
  const { offer, freeSim, structuredData } = useLoaderData<typeof loader>();
  const shell = useRouteLoaderData("root") as ShellData | undefined;
  const { t } = useTranslation("commerce");
  const popular = offer?.popular;
  const trust = [
    { key: "coverage", link: { to: "/help-center#categoria-cobertura-y-roaming" } },
    { key: "noContract" },
    ...(freeSim ? [{ key: "freeSim" }] : []),
    { key: "whatsapp", external: shell?.links.chat },
  ] as Array<{ key: string; link?: { to: string }; external?: string }>;

  return (
    <>
      {offer ? <JsonLd data={structuredData} /> : null}
      <section
        aria-labelledby="home-heading"
        className="-mx-4 -mt-8 mb-10 bg-gradient-to-br from-primary-soft to-secondary-soft px-4 pb-8 pt-10 sm:rounded-b-3xl md:px-8"
        data-testid="home-hero"
      >
        <div className="grid items-center gap-8 md:grid-cols-2">
          <div>
            <h1
              id="home-heading"
              className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl"
            >
              {t("common:pages.home.heading")}
            </h1>
            <p className="mt-3 text-lg font-semibold text-primary-dark">
              {t("common:app.tagline")}
            </p>
            <p className="mt-2 max-w-prose text-slate-800">{t("home.intro")}</p>
          </div>
          {popular ? (
            <div
              className="rounded-2xl border border-slate-200 bg-white p-5 shadow-md"
              data-testid="home-offer"
            >
              <p className="text-sm font-semibold text-slate-700">{t("home.hero.kicker")}</p>
              <h2 className="mt-1 text-2xl font-extrabold text-primary-dark">{popular.name}</h2>
              <p className="mt-2">
                <span className="text-4xl font-extrabold text-slate-900" data-testid="offer-price">
                  {formatPrice(popular.price)}
                </span>{" "}
                <span className="text-sm text-slate-700">{t("plan.priceNote")}</span>
              </p>
              <ul className="mt-3 space-y-1 text-slate-800">
                <li className="font-semibold">{t("plan.data", { count: popular.dataGb })}</li>
                <li>{t("plan.validity", { count: popular.validityDays })}</li>
                {popular.minutes === null && popular.sms === null ? (
                  <li>{t("plan.unlimitedCallsSms")}</li>
                ) : null}
              </ul>
              <CartActionForm
                intent="add"
                planId={popular.id}
                redirectTo="/"
                className="mt-4"
                width="block"
                pendingLabel={t("plan.adding")}
              >
                {t("home.hero.add", { name: popular.name })}
              </CartActionForm>
              <p className="mt-3 text-center">
                <Link to="/plans" prefetch="intent" className={linkClass}>
                  {t("home.hero.allPlans")}
                </Link>
              </p>
            </div>
          ) : null}
        </div>
      </section>

      {offer ? (
        <section aria-labelledby="home-plans" className="mb-12" data-testid="home-featured">
          <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="home-plans" className="text-2xl font-bold text-slate-900">
              {t("home.featuredHeading")}
            </h2>
            <Link to="/plans" prefetch="intent" className={linkClass}>
              {t("home.allPlans")}
            </Link>
          </div>
          <div className="grid gap-6 md:grid-cols-3">
            {offer.featured.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                redirectTo="/"
                headingLevel={3}
                popular={plan.id === offer.popular.id}
                compact
              />
            ))}
          </div>
        </section>
      ) : null}

      {/* Compact: on a phone the home page stays a storefront (storefront.spec.ts keeps its height). */}
      <div
        className="mb-8 rounded-lg border-l-4 border-secondary bg-slate-50 px-4 py-3 text-sm text-slate-800"
        data-testid="home-registration"
      >
        <p>
          <strong className="text-slate-900">{t("home.registration.title")}</strong>{" "}
          {t("home.registration.text", {
            requiredFrom: formatDay(REGISTRATION_RULES.requiredFrom),
            suspensionFrom: formatDay(REGISTRATION_RULES.suspensionFrom),
          })}{" "}
          <Link to={REGISTRATION_PATH} className={linkClass}>
            {t("home.registration.link")}
          </Link>
        </p>
      </div>

      <section aria-labelledby="home-shortcuts" className="mb-12">
        <h2 id="home-shortcuts" className="mb-4 text-2xl font-bold text-slate-900">
          {t("home.shortcutsHeading")}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3" data-testid="home-shortcuts">
          {SHORTCUTS.map(({ key, to }) => (
            <li key={key} className="rounded-lg border border-slate-200 bg-white p-4">
              <h3 className="text-lg font-bold text-slate-900">
                {t(`home.shortcuts.${key}.title`)}
              </h3>
              <p className="mt-1 text-slate-800">{t(`home.shortcuts.${key}.text`)}</p>
              <Link to={to} prefetch="intent" className={`mt-3 inline-block ${linkClass}`}>
                {t(`home.shortcuts.${key}.link`)}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-trust" data-testid="home-trust">
        <h2 id="home-trust" className="mb-4 text-2xl font-bold text-slate-900">
          {t("home.trustHeading")}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {trust.map(({ key, link, external }) => (
            <li key={key} className="rounded-lg bg-slate-50 p-4">
              <h3 className="font-bold text-primary-dark">{t(`home.trust.${key}.title`)}</h3>
              <p className="mt-1 text-slate-800">{t(`home.trust.${key}.text`)}</p>
              {link ? (
                <Link to={link.to} className={`mt-2 inline-block ${linkClass}`}>
                  {t(`home.trust.${key}.link`)}
                </Link>
              ) : null}
              {external ? (
                <ExternalLink href={external} className={`mt-2 inline-block ${linkClass}`}>
                  {t(`home.trust.${key}.link`)}
                </ExternalLink>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
