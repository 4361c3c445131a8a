import { Link, useRevalidator } from "react-router";
import { useEffect } from "react";
import { formatLineNumber } from "~/line/line-number";
import { useTranslation } from "~/i18n/react";
import type { LineActivationView } from "~/line/activations.server";
import { formatDateTime } from "~/lib/dates";
import type { LineRegistrationView } from "~/registration/activation-registrations.server";
import { holderProofPath, REGISTRATION_PATH } from "~/registration/paths";

/** How often a page with a line being activated looks again, with JavaScript. */
const REFRESH_EVERY_MS = 3_000;

/**
 * Where a SIM's line stands: "activando" with a link to look again, its number once active, or
 * that the operator could not activate it. Without JavaScript the link (or a reload) shows the
 * number; with it, the page looks again by itself while a line is being activated.
 */
export function LineActivationState({
  line,
  refreshTo,
}: {
  line: LineActivationView;
  /** This page's address, to look again. */
  refreshTo: string;
}) {
  const { t } = useTranslation("activation");
  switch (line.state) {
    case "activating":
      return (
        <div data-testid="line-activation" data-state="activating">
          <p className="font-semibold text-slate-900">{t("line.activating")}</p>
          <p className="text-sm text-slate-700">{t("line.activatingHint")}</p>
          <Link
            to={refreshTo}
            reloadDocument
            className="mt-1 inline-block font-medium text-secondary underline underline-offset-4 print:hidden"
          >
            {t("line.refresh")}
          </Link>
        </div>
      );
    case "active":
      return (
        <div data-testid="line-activation" data-state="active">
          <p className="text-lg font-bold text-slate-900" data-testid="line-number">
            {t("line.number", { number: formatLineNumber(line.number) })}
          </p>
          <p className="text-sm text-slate-700">{t("line.active")}</p>
          {line.registration ? <LineRegistrationState registration={line.registration} /> : null}
        </div>
      );
    case "refused":
      return (
        <div data-testid="line-activation" data-state="refused" role="alert">
          <p className="font-semibold text-error">{t("line.refused")}</p>
          <p className="text-sm text-slate-700">
            {t("line.refusedHint")}{" "}
            <Link to="/help-center" className="font-medium text-secondary underline">
              {t("common:nav.helpCenter")}
            </Link>
          </p>
        </div>
      );
  }
}

/**
 * The line's registration to its holder (issue 27): its folio with its date and time in Mexico
 * City, being made, or "pendiente de registro" with the way to finish it.
 */
export function LineRegistrationState({ registration }: { registration: LineRegistrationView }) {
  const { t } = useTranslation("activation");
  switch (registration.state) {
    case "registered":
      return (
        <p
          className="mt-1 text-sm text-slate-800"
          data-testid="line-registration"
          data-state="registered"
        >
          {t("line.registration.registered")}{" "}
          <span className="font-semibold" data-testid="line-registration-folio">
            {registration.folio}
          </span>{" "}
          <span data-testid="line-registration-date">
            {t("line.registration.at", { date: formatDateTime(registration.registeredAt) })}
          </span>
        </p>
      );
    case "registering":
      return (
        <p
          className="mt-1 text-sm text-slate-700"
          data-testid="line-registration"
          data-state="registering"
        >
          {t("line.registration.registering")}
        </p>
      );
    case "awaiting-holder":
      return (
        <div className="mt-1 text-sm" data-testid="line-registration" data-state="awaiting-holder">
          <p className="font-semibold text-slate-900">{t("line.registration.awaitingHolder")}</p>
          <p className="text-slate-700">
            {t("line.registration.awaitingHolderHint")}{" "}
            <Link
              to={holderProofPath(registration.orderRef)}
              className="font-medium text-secondary underline underline-offset-4"
            >
              {t("line.registration.prove")}
            </Link>
          </p>
        </div>
      );
    case "pending":
    case "suspended":
      return (
        <div
          className="mt-1 text-sm"
          data-testid="line-registration"
          data-state={registration.state}
        >
          <p className="font-semibold text-slate-900">{t("line.registration.pending")}</p>
          <p className="text-slate-700">
            {t(
              registration.state === "pending"
                ? "line.registration.pendingHint"
                : "line.registration.suspendedHint",
            )}{" "}
            <Link
              to={REGISTRATION_PATH}
              className="font-medium text-secondary underline underline-offset-4"
            >
              {t("line.registration.finish")}
            </Link>
          </p>
        </div>
      );
  }
}

/** Whether a page showing this line should look again soon by itself (with JavaScript). */
export function isSettling(line: LineActivationView | null | undefined): boolean {
  return (
    line?.state === "activating" ||
    (line?.state === "active" && line.registration?.state === "registering")
  );
}

/**
 * With JavaScript, the page's data again every few seconds while a line is being activated, so
 * the number appears by itself; nothing without it (the link does it).
 */
export function useRefreshWhileActivating(activating: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!activating) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, REFRESH_EVERY_MS);
    return () => clearInterval(timer);
  }, [activating, revalidator]);
}
