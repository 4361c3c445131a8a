import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Link,
  data,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { formatTotal } from "~/catalog/money";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { findTopupAmount, topupBenefits } from "~/topup/amounts";
import { addDays, formatDate, formatDateTime } from "~/lib/dates";
import { maskPhoneNumber } from "~/topup/phone";
import { PendingPayment } from "~/components/payments/pending-payment";
import { loadPaymentOptions } from "~/payments/payment-options.server";
import { paymentState } from "~/payments/payment-state";
import { receiptPath, receiptPdfPath, TOPUP_PATH } from "~/topup/paths";
import { currentPayment } from "~/payments/pay-for.server";
import { paymentView } from "~/payments/payment-view.server";
import { TOPUP_PAYMENT_PURPOSE, type Topup } from "~/topup/topups.server";
import {
  loadTopup,
  loadTopupApplication,
  submitReceiptPayment,
} from "~/topup/receipt-request.server";
import { TopupApplicationNotice } from "~/components/topup/topup-application";
import { TopupBenefits } from "~/components/topup/topup-benefits";
import { InvoicingLink } from "~/components/invoicing/invoicing-link";
import { invoicePath } from "~/invoicing/paths";
import { requestContext } from "~/lib/router-context.server";

// Decline reasons are the payment's, worded once in the commerce messages.
export const handle = { i18n: ["topup", "commerce"] };

/** The address is the key to the receipt: search engines must not keep it. */
export const meta: typeof titleMeta = (args) => [
  ...titleMeta(args),
  { name: "robots", content: "noindex" },
];

export async function loader({ context: routerContext, params }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  let topup: Topup = await loadTopup(context, params.id);
  const { payment, refreshed } = await currentPayment(context, {
    purpose: TOPUP_PAYMENT_PURPOSE,
    reference: topup.id,
    awaitingPayment: topup.status === "pending_payment",
  });
  if (refreshed) topup = await loadTopup(context, params.id);
  const offer = findTopupAmount(topup.amount);
  const customer = getCustomer(context);
  const [application, paymentOptions] = await Promise.all([
    loadTopupApplication(context, topup),
    loadPaymentOptions(context),
  ]);
  return data(
    {
      title: getFixedT("topup")("receipt.title", { folio: topup.folio }),
      receipt: {
        id: topup.id,
        folio: topup.folio,
        maskedLine: maskPhoneNumber(topup.phoneNumber),
        amount: topup.amount,
        date: formatDateTime(topup.paidAt ?? topup.createdAt),
        status: topup.status,
        offer: offer
          ? {
              validityDays: offer.validityDays,
              benefits: topupBenefits(offer),
              validUntil: topup.paidAt
                ? formatDate(addDays(topup.paidAt, offer.validityDays))
                : null,
            }
          : null,
        ownedBySignedInCustomer: customer !== null && customer.sub === topup.customerSub,
      },
      application,
      payment: paymentView(payment),
      voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
      paymentOptions,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export function action({ request, context: routerContext, params }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitReceiptPayment(context, request, params.id);
}

export default function TopupReceiptPage() {
  const { receipt, application, payment, voucherHours, paymentOptions } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { t } = useTranslation("topup");
  const { paid, cancelled, pending, declined, instructions, statusKey, statusTone } = paymentState(
    receipt.status,
    payment,
  );
  const fact = (label: string, value: string, testId: string, tone = "text-slate-900") => (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className={`text-xl font-extrabold ${tone}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );

  return (
    <>
      <PageHeader title={t("receipt.heading")}>
        {paid
          ? t("receipt.paidLead")
          : cancelled
            ? t("receipt.cancelledLead", { folio: receipt.folio })
            : declined
              ? null
              : instructions
                ? t("receipt.voucherLead")
                : t("receipt.pendingLead")}
      </PageHeader>

      <dl className="mb-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="topup-receipt">
        {fact(t("receipt.folio"), receipt.folio, "topup-folio")}
        {fact(t("receipt.line"), receipt.maskedLine, "topup-line")}
        {fact(t("receipt.amount"), formatTotal(receipt.amount), "topup-amount")}
        {fact(t("receipt.date"), receipt.date, "topup-date")}
        {fact(t("receipt.status"), t(`receipt.statuses.${statusKey}`), "topup-status", statusTone)}
      </dl>
      <p className="-mt-4 mb-8 print:hidden">
        <a
          href={receiptPdfPath(receipt.id)}
          download
          className="font-medium text-secondary underline underline-offset-4"
          data-testid="topup-receipt-pdf"
        >
          {t("receipt.receiptPdf")}
        </a>
      </p>

      {receipt.offer ? (
        <p className="mb-6 text-slate-800">
          <span className="font-semibold">{t("receipt.benefits")}:</span>{" "}
          <TopupBenefits benefits={receipt.offer.benefits} layout="row" />
          {/* An estimate until the line's own vigencia, read from the BSS, can be shown. */}
          {receipt.offer.validUntil && !(application.state === "applied" && application.line) ? (
            <>
              <br />
              <span data-testid="topup-valid-until">
                {t("receipt.validUntil", {
                  count: receipt.offer.validityDays,
                  date: receipt.offer.validUntil,
                })}
              </span>
            </>
          ) : null}
        </p>
      ) : null}

      <TopupApplicationNotice
        application={application}
        folio={receipt.folio}
        validityDays={receipt.offer?.validityDays ?? null}
        refreshTo={receiptPath(receipt.id)}
      />

      {paid && payment?.cardBrand && payment.cardLast4 ? (
        <p className="mb-6 text-sm text-slate-700">
          {t("receipt.paidWith", {
            brand: t(`commerce:payment.brands.${payment.cardBrand}`),
            last4: payment.cardLast4,
          })}
        </p>
      ) : null}

      {pending ? (
        <PendingPayment
          messages="topup:receipt"
          folio={receipt.folio}
          amount={receipt.amount}
          payment={payment}
          declined={declined}
          instructions={instructions}
          voucherHours={voucherHours}
          options={paymentOptions}
          lastResult={lastResult}
          refreshTo={receiptPath(receipt.id)}
          declinedTestId="topup-declined"
          pdfHref={receiptPdfPath(receipt.id)}
        />
      ) : null}

      {paid ? (
        <InvoicingLink
          to={invoicePath({ kind: "topup", ref: receipt.id })}
          testId="topup-invoice-link"
        />
      ) : null}

      <p className="mb-4 text-sm text-slate-700 print:hidden">{t("receipt.keepAddress")}</p>
      <p className="flex flex-wrap gap-6">
        <Link to={TOPUP_PATH} className="font-medium text-secondary underline underline-offset-4">
          {t("receipt.another")}
        </Link>
        {receipt.ownedBySignedInCustomer ? (
          <Link
            to="/my-account"
            className="font-medium text-secondary underline underline-offset-4"
          >
            {t("receipt.backToAccount")}
          </Link>
        ) : null}
      </p>
    </>
  );
}
