import type { Plan } from "~/catalog/plan";
import { formatCount, formatPrice } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";
import { CartActionForm } from "./cart-action-form";

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
}

export function PlanCard({
  plan,
  redirectTo,
  headingLevel = 2,
  popular = false,
  compact = false,
}: {
  plan: Plan;
  redirectTo: string;
  headingLevel?: 2 | 3;
  /** Marks the card "Más popular" (one plan of the catalogue, HOME_FEATURED). */
  popular?: boolean;
  /** The home page's short card: the essentials; /plans has the whole card and the table. */
  compact?: boolean;
}) {
  const { t } = useTranslation("commerce");
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `plan-${plan.id}`;
  const countries = (["mexico", "usa", "canada"] as const)
    .filter((country) => plan.coverage[country])
    .map((country) => t(`plan.countries.${country}`));
  const sim =
    plan.simTypes.length === 2
      ? t("plan.simPhysicalAndEsim")
      : plan.simTypes[0] === "esim"
        ? t("plan.simEsimOnly")
        : t("plan.simPhysicalOnly");
  return (
    <article
      aria-labelledby={headingId}
      className={`flex flex-col rounded-lg border bg-white p-5 shadow-sm ${
        popular ? "border-2 border-secondary" : "border-slate-200"
      }`}
      data-testid="plan-card"
    >
      {popular ? (
        <p
          className="mb-2 self-start rounded-full bg-secondary px-3 py-1 text-sm font-bold text-white"
          data-testid="popular-badge"
        >
          {t("plan.popular")}
        </p>
      ) : null}
      <Heading id={headingId} className="text-xl font-bold text-primary-dark">
        {plan.name}
      </Heading>
      <p className="mt-2">
        <span className="text-3xl font-extrabold text-slate-900">{formatPrice(plan.price)}</span>{" "}
        <span className="text-sm text-slate-700">{t("plan.priceNote")}</span>
      </p>
      <ul className="mt-4 flex-1 space-y-1 text-slate-800">
        <li className="font-semibold">{t("plan.data", { count: plan.dataGb })}</li>
        <li>{t("plan.validity", { count: plan.validityDays })}</li>
        <li>
          {plan.minutes === null && plan.sms === null
            ? t("plan.unlimitedCallsSms")
            : t("plan.minutesAndSms", {
                minutes: formatCount(plan.minutes ?? 0),
                sms: formatCount(plan.sms ?? 0),
              })}
        </li>
        <li>{t("plan.coverage", { countries: joinList(countries, t("plan.and")) })}</li>
        <li>
          {plan.unlimitedSocial
            ? t("plan.unlimitedSocial", { networks: plan.socialNetworks.join(", ") })
            : t("plan.noUnlimitedSocial")}
        </li>
        {compact ? null : (
          <>
            <li>{plan.hotspot ? t("plan.hotspot") : t("plan.noHotspot")}</li>
            <li>{sim}</li>
          </>
        )}
      </ul>
      {compact ? null : (
        <>
          <details className="mt-3 text-sm text-slate-700">
            <summary className="cursor-pointer font-medium text-slate-800">
              {t("plan.fairUse")}
            </summary>
            <p className="mt-1">{plan.fairUseNote}</p>
          </details>
          <p className="mt-2 text-xs text-slate-700">
            {t("plan.tariffRegistration", { number: plan.tariffRegistration })}
          </p>
        </>
      )}
      <CartActionForm
        intent="add"
        planId={plan.id}
        redirectTo={redirectTo}
        className="mt-4"
        width="block"
        pendingLabel={t("plan.adding")}
      >
        {t("plan.addToCart")}
      </CartActionForm>
    </article>
  );
}
