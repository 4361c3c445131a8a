import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";
import type { ShippedSimLineView } from "~/line/order-sim-lines.server";
import { SIM_ACTIVATION_PATH } from "~/line/paths";
import { LineActivationState } from "./line-activation";

/**
 * A shipped order's physical SIMs on its page: a way to /activar while any waits to be
 * activated, and each SIM's line (being activated, or its number).
 */
export function ShippedSimLines({
  sims,
  refreshTo,
}: {
  sims: ShippedSimLineView[];
  /** The order's page, to look again. */
  refreshTo: string;
}) {
  const { t } = useTranslation("activation");
  const waiting = sims.some((sim) => sim.line === null);
  return (
    <section
      aria-labelledby="sim-lines-heading"
      className="mb-8 rounded-lg border border-primary bg-white p-5"
      data-testid="shipped-sim-lines"
    >
      <h2 id="sim-lines-heading" className="text-xl font-bold text-slate-900">
        {t("order.heading")}
      </h2>
      {waiting ? (
        <>
          <p className="mt-2 text-slate-800">{t("order.lead")}</p>
          <p className="mt-3 print:hidden">
            <Link
              to={SIM_ACTIVATION_PATH}
              className={buttonClass({ size: "lg" })}
              data-testid="activate-sim-link"
            >
              {t("order.link")}
            </Link>
          </p>
        </>
      ) : null}
      <ul className="mt-4 grid gap-4 md:grid-cols-2">
        {sims.map((sim) => (
          <li
            key={sim.position}
            className="rounded border border-slate-200 p-4"
            data-testid="shipped-sim"
          >
            <h3 className="font-bold text-slate-900">
              {t("order.sim", {
                number: sim.position + 1,
                count: sims.length,
                plan: sim.planName,
              })}
            </h3>
            <div className="mt-2">
              {sim.line ? (
                <LineActivationState line={sim.line} refreshTo={refreshTo} />
              ) : (
                <p className="text-slate-700">{t("order.notYet")}</p>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
