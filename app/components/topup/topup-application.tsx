import { Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { useTranslation } from "~/i18n/react";
import { REGISTRATION_PATH } from "~/registration/paths";
import type { TopupApplication } from "~/topup/receipt-request.server";

/**
 * What a paid top-up did to its line: applied (with the line's new vigencia and data, or why they
 * cannot be shown now), being applied (with a link to look again), or refused by the operator.
 */
export function TopupApplicationNotice({
  application,
  folio,
  validityDays,
  refreshTo,
}: {
  application: TopupApplication;
  folio: string;
  /** What the amount buys, for the vigencia's wording; null for an amount no longer on sale. */
  validityDays: number | null;
  /** The receipt itself, to look again while the top-up is being applied. */
  refreshTo: string;
}) {
  const { t } = useTranslation("topup");
  switch (application.state) {
    case "none":
      return null;
    case "pending":
      return (
        <Alert tone="info" className="mb-6" testId="topup-application">
          <p className="font-semibold" data-testid="topup-application-state">
            {t("receipt.application.pending")}
          </p>
          <p>{t("receipt.application.pendingLead")}</p>
          <Link to={refreshTo} className="font-medium text-secondary underline underline-offset-4">
            {t("receipt.refresh")}
          </Link>
        </Alert>
      );
    case "refused":
      return (
        <Alert tone="error" className="mb-6" testId="topup-application">
          <p className="font-semibold" data-testid="topup-application-state">
            {t("receipt.application.refused")}
          </p>
          <p>{t("receipt.application.refusedLead", { folio })}</p>
        </Alert>
      );
    case "applied": {
      const { line } = application;
      return (
        <Alert tone="success" className="mb-6" testId="topup-application">
          <p className="font-semibold" data-testid="topup-application-state">
            {t("receipt.application.applied")}
          </p>
          {line === null ? (
            <p data-testid="topup-line-unavailable">{t("receipt.application.lineUnavailable")}</p>
          ) : (
            <>
              {line.validUntil ? (
                <p data-testid="topup-valid-until">
                  {validityDays === null
                    ? t("receipt.application.lineValidUntil", { date: line.validUntil })
                    : t("receipt.application.validUntil", {
                        count: validityDays,
                        date: line.validUntil,
                      })}
                </p>
              ) : null}
              {line.data ? (
                <p data-testid="topup-line-data">
                  {t("receipt.application.data", {
                    remaining: `${line.data.remaining.value} ${line.data.remaining.unit}`,
                    total: `${line.data.total.value} ${line.data.total.unit}`,
                  })}
                </p>
              ) : null}
              {line.unregistered ? (
                <p data-testid="topup-line-unregistered">
                  {t("receipt.application.unregistered")}{" "}
                  <Link
                    to={REGISTRATION_PATH}
                    className="font-medium text-secondary underline underline-offset-4"
                  >
                    {t("unregistered.register")}
                  </Link>
                </p>
              ) : null}
            </>
          )}
        </Alert>
      );
    }
  }
}
