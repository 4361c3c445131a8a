import { NIP_VALIDITY_DAYS, PORTABILITY_MAX_HOURS } from "~/catalog/terms";
import { useTranslation } from "~/i18n/react";

/** How a port goes and what to know before it, beside the request form. */
export function PortabilityExplanation() {
  const { t } = useTranslation("portability");
  return (
    <div className="space-y-8 lg:col-span-2">
      <section aria-labelledby="como-funciona">
        <h2 id="como-funciona" className="text-xl font-bold text-slate-900">
          {t("steps.heading")}
        </h2>
        <ol className="mt-3 list-decimal space-y-3 pl-6 text-slate-800">
          <li>{t("steps.nip", { days: NIP_VALIDITY_DAYS })}</li>
          <li>{t("steps.form")}</li>
          <li>{t("steps.wait", { hours: PORTABILITY_MAX_HOURS })}</li>
          <li>{t("steps.activate")}</li>
        </ol>
      </section>
      <section aria-labelledby="antes-de-empezar">
        <h2 id="antes-de-empezar" className="text-xl font-bold text-slate-900">
          {t("facts.heading")}
        </h2>
        <ul className="mt-3 list-disc space-y-3 pl-6 text-slate-800">
          <li>{t("facts.balance")}</li>
          <li>{t("facts.debts")}</li>
          <li>{t("facts.nipValidity", { days: NIP_VALIDITY_DAYS })}</li>
          <li>{t("facts.free")}</li>
        </ul>
      </section>
    </div>
  );
}
