import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/react";
import type { PaymentOptions } from "~/payments/payment-options.server";
import type { PaymentView } from "~/payments/payment-view.server";
import { PayForm } from "./pay-form";
import { PaymentInstructions } from "./payment-instructions";

/**
 * Something still to pay (an order, a top-up): why the last attempt failed, how to pay the
 * voucher or transfer already issued, and the form to pay (again, or another way). The words
 * are the page's own (`messages`: "commerce:confirmation" or "topup:receipt").
 */
export function PendingPayment({
  messages,
  folio,
  amount,
  payment,
  declined,
  instructions,
  voucherHours,
  lastResult,
  refreshTo,
  declinedTestId,
  options,
  pdfHref,
}: {
  messages: "commerce:confirmation" | "topup:receipt";
  folio: string;
  amount: number;
  payment: PaymentView | null;
  declined: boolean;
  instructions: PaymentView["instructions"];
  voucherHours: number;
  lastResult?: SubmissionResult<string[]>;
  /** The page itself, to look for news of a payment in progress. */
  refreshTo: string;
  declinedTestId: string;
  options: PaymentOptions;
  /** The voucher (with the rest of the receipt) as a PDF. */
  pdfHref: string;
}) {
  const { t } = useTranslation("commerce");
  return (
    <>
      {declined ? (
        <section
          role="alert"
          className="mb-8 rounded border-l-4 border-error bg-error-soft px-4 py-4 text-error"
          data-testid={declinedTestId}
        >
          <p className="font-semibold">
            {t(`${messages}.declinedLead`, {
              reason: t(`payment.declineReasons.${payment?.declineReason ?? "card_declined"}`),
            })}
          </p>
          <p className="mt-1 text-slate-900">{t(`${messages}.declinedKept`, { folio })}</p>
        </section>
      ) : null}

      {instructions ? (
        <PaymentInstructions
          instructions={instructions}
          amount={amount}
          paying={messages === "topup:receipt" ? "topup" : "order"}
          pdfHref={pdfHref}
        />
      ) : null}

      <PayForm
        payment={payment}
        voucherHours={voucherHours}
        lastResult={lastResult}
        submitLabel={
          declined
            ? t(`${messages}.retry`)
            : payment?.checkoutUrl
              ? t(`${messages}.payNow`)
              : t(`${messages}.pay`)
        }
        refreshTo={declined ? null : refreshTo}
        options={options}
      />
    </>
  );
}
