import { formatTotal } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/lib/use-hydrated";
import type { InstructionsView } from "~/payments/payment-view.server";
import { Button } from "~/components/ui/button";

/**
 * A cash voucher or the details of a SPEI transfer, as the customer takes them to the store or
 * the bank app: drawn by the server, printable, and shown again each time the page is opened.
 */
export function PaymentInstructions({
  instructions,
  amount,
  paying,
  pdfHref,
}: {
  instructions: InstructionsView;
  amount: number;
  /** What is cancelled when the time to pay runs out. */
  paying: "order" | "topup";
  /** The same as a PDF: what keeps and prints it without JavaScript (decision 0141). */
  pdfHref: string;
}) {
  const { t } = useTranslation("commerce");
  const hydrated = useHydrated();
  const cash = instructions.method === "cash";
  const row = (label: string, value: string, testId: string, mono = false) => (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd
        className={`break-all text-lg font-bold text-slate-900 ${mono ? "font-mono tracking-wide" : ""}`}
        data-testid={testId}
      >
        {value}
      </dd>
    </div>
  );
  return (
    <section
      aria-labelledby="payment-instructions"
      className="mb-8 rounded-lg border-2 border-slate-900 bg-white p-5"
      data-testid={`payment-instructions-${instructions.method}`}
    >
      <h2 id="payment-instructions" className="text-xl font-bold text-slate-900">
        {t(cash ? "payment.instructions.cashHeading" : "payment.instructions.speiHeading")}
      </h2>
      <p className="mt-2 text-slate-800">
        {t(cash ? "payment.instructions.cashIntro" : "payment.instructions.speiIntro")}
      </p>
      {instructions.method === "cash" ? (
        <img
          src={instructions.barcode}
          alt={t("payment.instructions.barcodeAlt", { reference: instructions.reference })}
          className="mt-4 h-24 w-full max-w-md bg-white object-contain object-left"
          data-testid="payment-barcode"
        />
      ) : null}
      <dl className="mt-4 space-y-3">
        {row(t("payment.instructions.amount"), formatTotal(amount), "payment-amount")}
        {instructions.method === "spei" ? (
          <>
            {row(t("payment.instructions.clabe"), instructions.clabe, "payment-clabe", true)}
            {row(t("payment.instructions.bank"), instructions.bank, "payment-bank")}
            {row(
              t("payment.instructions.beneficiary"),
              instructions.beneficiary,
              "payment-beneficiary",
            )}
          </>
        ) : null}
        {row(
          t("payment.instructions.reference"),
          instructions.reference,
          "payment-reference",
          true,
        )}
        {row(t("payment.instructions.expires"), instructions.expires, "payment-expires")}
      </dl>
      <p className="mt-3 text-sm text-slate-700">
        {t(`payment.instructions.expiryNote.${instructions.method}.${paying}`)}
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-4 print:hidden">
        <a
          href={pdfHref}
          download
          className="font-semibold text-secondary underline underline-offset-4"
          data-testid="payment-pdf"
        >
          {t(`payment.instructions.download.${instructions.method}`)}
        </a>
        {hydrated ? (
          <Button variant="quiet" onClick={() => window.print()}>
            {t(`payment.instructions.print.${instructions.method}`)}
          </Button>
        ) : null}
        <p className="text-sm text-slate-700">
          {t(`payment.instructions.saveHint.${instructions.method}`)}
        </p>
        {instructions.hostedUrl ? (
          <a
            href={instructions.hostedUrl}
            className="font-medium text-secondary underline underline-offset-4"
            target="_blank"
            rel="noopener noreferrer"
          >
            {t(`payment.instructions.hostedLink.${instructions.method}`)}
          </a>
        ) : null}
        {instructions.simulatorUrl ? (
          <a
            href={instructions.simulatorUrl}
            className="font-medium text-amber-900 underline underline-offset-4"
            data-testid="payment-simulator"
          >
            {t("payment.instructions.simulator")}
          </a>
        ) : null}
      </div>
    </section>
  );
}
