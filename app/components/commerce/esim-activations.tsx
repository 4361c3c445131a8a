import { Form, Link } from "react-router";
import { LineActivationState } from "~/components/activation/line-activation";
import type { LineActivationView } from "~/line/activations.server";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";

export interface EsimActivationView {
  position: number;
  planName: string;
  state: "issued" | "installed";
  iccid: string;
  testCode: boolean;
  installedAt: string | null;
  /** Its line once installed: being activated, or its number; null before (or from before lines). */
  line: LineActivationView | null;
  /** The code to install it with; null once installed: a spent code is never shown. */
  code: { activationCode: string; qrLabel: string; qrSrc: string } | null;
}

/**
 * The eSIMs of a paid order: a QR code to scan for each one waiting for a phone, the activation
 * code to type where a phone cannot scan, and its ICCID; a way to replace a lost code; for an
 * installed one, only that it is installed. Drawn on the server; prints with the page.
 */
export function EsimActivations({
  status,
  activations,
  simulatesInstallation = false,
  problem,
  refreshTo,
}: {
  status: "ready" | "unavailable";
  activations: EsimActivationView[];
  /** The sandbox provisioner: offer to simulate a phone installing each code. */
  simulatesInstallation?: boolean;
  /** A message key from a refused change. */
  problem?: string | null;
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
      {problem ? (
        <Alert tone="error" className="mt-3">
          {t(problem)}
        </Alert>
      ) : null}
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
                {activation.code ? (
                  <>
                    <img
                      src={activation.code.qrSrc}
                      alt={activation.code.qrLabel}
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
                      {activation.code.activationCode}
                    </p>
                  </>
                ) : (
                  <p className="mt-3 text-slate-800" data-testid="esim-installed">
                    {t("confirmation.esim.installed", {
                      date: formatDateTime(activation.installedAt ?? ""),
                    })}
                  </p>
                )}
                <p className="mt-2 text-sm text-slate-700">
                  {t("confirmation.esim.iccid")}:{" "}
                  <span className="font-mono" data-testid="esim-iccid">
                    {activation.iccid}
                  </span>
                </p>
                {activation.code ? (
                  <div className="mt-4 space-y-3 print:hidden">
                    {simulatesInstallation ? (
                      <EsimChangeForm
                        intent="simulate-esim-install"
                        position={activation.position}
                        label={t("confirmation.esim.simulateInstall")}
                        pendingLabel={t("confirmation.esim.simulatingInstall")}
                      />
                    ) : null}
                    <details>
                      <summary className="cursor-pointer font-medium text-secondary underline underline-offset-4">
                        {t("confirmation.esim.lostCode")}
                      </summary>
                      <p className="mt-2 text-sm text-slate-700">
                        {t("confirmation.esim.replaceHint")}
                      </p>
                      <EsimChangeForm
                        intent="replace-esim-code"
                        position={activation.position}
                        label={t("confirmation.esim.replace")}
                        pendingLabel={t("confirmation.esim.replacing")}
                      />
                    </details>
                  </div>
                ) : (
                  <>
                    {activation.line ? (
                      <div className="mt-3">
                        <LineActivationState line={activation.line} refreshTo={refreshTo} />
                      </div>
                    ) : null}
                    <p className="mt-3 text-sm text-slate-700">
                      {t("confirmation.esim.installedHint")}
                    </p>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function EsimChangeForm({
  intent,
  position,
  label,
  pendingLabel,
}: {
  intent: "replace-esim-code" | "simulate-esim-install";
  position: number;
  label: string;
  pendingLabel: string;
}) {
  return (
    <Form method="post" className="mt-2">
      <input type="hidden" name="position" value={position} />
      <SubmitButton
        name="intent"
        value={intent}
        variant={intent === "replace-esim-code" ? "quiet" : "outline"}
        width="blockOnPhone"
        pendingLabel={pendingLabel}
        match={{ position: String(position) }}
      >
        {label}
      </SubmitButton>
    </Form>
  );
}
