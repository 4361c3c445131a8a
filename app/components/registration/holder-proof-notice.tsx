import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { useTranslation } from "~/i18n/react";
import { formatDateTime } from "~/lib/dates";
import type { OrderHolderNotice } from "~/registration/holder-proof";
import { REGISTRATION_PATH } from "~/registration/paths";

/**
 * The order page's word on its holder (decision 0139): the way to show their identification
 * while it is still to do, when it was confirmed, or where to register once it can no longer be
 * done online.
 */
export function HolderProofNotice({ notice }: { notice: OrderHolderNotice }) {
  const { t } = useTranslation("registration");
  const { proof } = notice;
  const tone =
    proof.state === "to-prove"
      ? "border-amber-300 bg-amber-50"
      : proof.state === "ended"
        ? "border-red-200 bg-red-50"
        : "border-slate-200 bg-white";
  return (
    <section
      aria-labelledby="holder-proof-heading"
      className={`mb-8 rounded-lg border p-5 ${tone}`}
      data-testid="holder-proof-notice"
      data-state={proof.state}
    >
      <h2 id="holder-proof-heading" className="text-xl font-bold text-slate-900">
        {t("proof.orderHeading")}
      </h2>
      {proof.state === "to-prove" ? (
        <>
          <p className="mt-2 text-slate-800">
            {t("proof.orderToProve", { name: notice.holderName })}
          </p>
          <Link
            to={notice.proofPath}
            className={`mt-3 print:hidden ${buttonClass({ size: "lg", width: "blockOnPhone" })}`}
            data-testid="holder-proof-link"
          >
            {t("proof.orderProve")}
          </Link>
        </>
      ) : proof.state === "proved" ? (
        <p className="mt-2 text-slate-800">
          {t("proof.orderProved", {
            name: notice.holderName,
            date: formatDateTime(proof.provedAt),
          })}
        </p>
      ) : (
        <p className="mt-2 text-slate-800">
          {t("proof.orderEnded")}{" "}
          <Link
            to={REGISTRATION_PATH}
            className="font-medium text-secondary underline underline-offset-4"
          >
            {t("proof.registerLater")}
          </Link>
        </p>
      )}
    </section>
  );
}
