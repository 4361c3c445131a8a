import { Link } from "react-router";
import { LineActivationState } from "~/components/activation/line-activation";
import { statusText } from "~/components/portability/request-details";
import { useTranslation } from "~/i18n/react";
import { carrierLabel } from "~/portability/display";
import type { OrderPortInView } from "~/portability/order-port-in-page.server";
import { PORTABILITY_PATH } from "~/portability/paths";

const linkClass = "font-medium text-secondary underline underline-offset-4";

/**
 * The numbers the order keeps (decision 0106): waiting for the payment, the portability request
 * filed for each (its folio, its status and a link to its page), its line once ported, or that it
 * was not filed because the number already had a request in process.
 */
export function OrderPortIns({
  portIns,
  refreshTo,
}: {
  portIns: OrderPortInView[];
  /** This page's address, to look again while a ported line is being activated. */
  refreshTo: string;
}) {
  const { t } = useTranslation("commerce");
  const { t: tp } = useTranslation("portability");
  if (portIns.length === 0) return null;
  return (
    <section
      aria-labelledby="order-port-ins"
      className="mb-8 rounded-lg border border-slate-200 bg-white p-5"
      data-testid="order-port-ins"
    >
      <h2 id="order-port-ins" className="text-xl font-bold text-slate-900">
        {t("confirmation.keepNumber.heading")}
      </h2>
      <ul className="mt-3 divide-y divide-slate-200">
        {portIns.map((portIn) => (
          <li
            key={portIn.position}
            className="py-3"
            data-testid="order-port-in"
            data-state={portIn.state}
          >
            <p className="font-semibold text-slate-900">
              {t("confirmation.keepNumber.line", {
                line: portIn.position + 1,
                plan: portIn.planName,
                number: portIn.line,
                carrier: carrierLabel(portIn.carrier, tp("form.otherCarrier")),
              })}
            </p>
            {portIn.state === "waiting" ? (
              <p className="mt-1 text-slate-800">{t("confirmation.keepNumber.waiting")}</p>
            ) : null}
            {portIn.request ? (
              <>
                <p className="mt-1 text-slate-800">
                  {t("confirmation.keepNumber.filed")}{" "}
                  <span className="font-mono font-semibold" data-testid="order-port-in-folio">
                    {portIn.request.folio}
                  </span>
                  {" · "}
                  <span data-testid="order-port-in-status">{statusText(portIn.request, tp)}</span>
                </p>
                <Link
                  to={portIn.request.href}
                  className={`mt-1 inline-block ${linkClass}`}
                  data-testid="order-port-in-link"
                >
                  {t("confirmation.keepNumber.statusLink", { folio: portIn.request.folio })}
                </Link>
                {portIn.portedLine ? (
                  <div className="mt-3">
                    <LineActivationState line={portIn.portedLine} refreshTo={refreshTo} />
                  </div>
                ) : null}
              </>
            ) : null}
            {portIn.state === "refused" ? (
              <p className="mt-1 text-slate-800" role="status">
                {t("confirmation.keepNumber.inProcess")}{" "}
                <Link to={PORTABILITY_PATH} className={linkClass}>
                  {t("confirmation.keepNumber.portabilityLink")}
                </Link>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
