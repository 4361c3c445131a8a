import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";

export interface EsimActivationView {
  position: number;
  planName: string;
  activationCode: string;
  iccid: string;
  testCode: boolean;
  qrLabel: string;
  qrSrc: string;
}

/**
 * The eSIMs of a paid order: a QR code to scan for each, the activation code to type where a
 * phone cannot scan, and its ICCID. Drawn on the server; prints with the page.
 */
export function EsimActivations({
  status,
  activations,
  refreshTo,
}: {
  status: "ready" | "unavailable";
  activations: EsimActivationView[];
  /** This page's address, to try again. */
  refreshTo: string;
}) {
  const { t } = useTranslation("commerce");
  return (
    <section
      aria-labelledby="esim-heading"
      className="mb-8 rounded-lg border border-primary bg-white p-5"
      data-testid="esim-activations"
    >
      <h2 id="esim-heading" className="text-xl font-bold text-slate-900">
        {t("confirmation.esim.heading")}
      </h2>
      {status === "unavailable" ? (
        <div role="status" data-testid="esim-unavailable">
          <p className="mt-2 text-slate-800">{t("confirmation.esim.unavailable")}</p>
          <Link
            to={refreshTo}
            reloadDocument
            className="mt-3 inline-block rounded border border-secondary px-4 py-2 font-semibold text-secondary print:hidden"
          >
            {t("confirmation.esim.refresh")}
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-2 text-slate-800">{t("confirmation.esim.lead")}</p>
          <ul className="mt-4 grid gap-6 md:grid-cols-2">
            {activations.map((activation) => (
              <li
                key={activation.position}
                className="rounded border border-slate-200 p-4"
                data-testid="esim-activation"
              >
                <h3 className="font-bold text-slate-900">
                  {t("confirmation.esim.number", {
                    number: activation.position + 1,
                    count: activations.length,
                  })}{" "}
                  · {t("confirmation.esim.plan", { plan: activation.planName })}
                </h3>
                <img
                  src={activation.qrSrc}
                  alt={activation.qrLabel}
                  width={240}
                  height={240}
                  className="mt-3 h-60 w-60 bg-white"
                  data-testid="esim-qr"
                />
                {activation.testCode ? (
                  <p
                    className="mt-3 rounded bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900"
                    data-testid="esim-test-code"
                  >
                    {t("confirmation.esim.testCode")}
                  </p>
                ) : null}
                <p className="mt-3 text-sm text-slate-700">{t("confirmation.esim.manual")}</p>
                <p
                  className="mt-1 break-all font-mono text-sm text-slate-900"
                  data-testid="esim-activation-code"
                >
                  {activation.activationCode}
                </p>
                <p className="mt-2 text-sm text-slate-700">
                  {t("confirmation.esim.iccid")}:{" "}
                  <span className="font-mono" data-testid="esim-iccid">
                    {activation.iccid}
                  </span>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
