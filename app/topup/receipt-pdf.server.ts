import type { RequestContext } from "~/context";
import { formatTotal } from "~/catalog/money";
import { getFixedT } from "~/i18n/i18n.server";
import { formatDateTime } from "~/lib/dates";
import { paymentState } from "~/payments/payment-state";
import { paymentView } from "~/payments/payment-view.server";
import {
  receiptPdf,
  receiptPdfResponse,
  voucherSection,
  type ReceiptPdf,
} from "~/payments/receipt-pdf.server";
import { findTopupAmount, topupBenefits } from "./amounts";
import { maskPhoneNumber } from "./phone";
import { loadTopup } from "./receipt-request.server";
import { TOPUP_PAYMENT_PURPOSE, type Topup } from "./topups.server";

/**
 * The top-up's receipt page as a PDF (decision 0141): folio, line (masked), amount, date, status,
 * what it includes, how it was paid, or the voucher or transfer still to pay. Its key in the
 * address, as the page's (loadTopup: 404 for an unknown one); nothing the page does not show.
 */
export async function loadTopupReceiptPdf(context: RequestContext, id: string | undefined) {
  const topup = await loadTopup(context, id);
  const payment = paymentView(await context.payments.latest(TOPUP_PAYMENT_PURPOSE, topup.id));
  const body = await receiptPdf(topupReceipt(topup, payment));
  return receiptPdfResponse(body, `recarga-${topup.folio}.pdf`);
}

export function topupReceipt(
  topup: Pick<Topup, "folio" | "phoneNumber" | "amount" | "status" | "paidAt" | "createdAt">,
  payment: ReturnType<typeof paymentView>,
): ReceiptPdf {
  const t = getFixedT("topup");
  const commerce = getFixedT("commerce");
  const { paid, instructions, statusKey } = paymentState(topup.status, payment);
  const offer = findTopupAmount(topup.amount);
  return {
    title: t("receipt.title", { folio: topup.folio }),
    facts: [
      [t("receipt.folio"), topup.folio],
      [t("receipt.line"), maskPhoneNumber(topup.phoneNumber)],
      [t("receipt.amount"), formatTotal(topup.amount)],
      [t("receipt.date"), formatDateTime(topup.paidAt ?? topup.createdAt)],
      [t("receipt.status"), t(`receipt.statuses.${statusKey}`)],
    ],
    notes: [
      ...(offer
        ? [
            `${t("receipt.benefits")}: ${topupBenefits(offer)
              .map((benefit) => t(`form.${benefit.key}`, benefit))
              .join(" · ")}`,
          ]
        : []),
      ...(paid && payment?.cardBrand && payment.cardLast4
        ? [
            t("receipt.paidWith", {
              brand: commerce(`payment.brands.${payment.cardBrand}`),
              last4: payment.cardLast4,
            }),
          ]
        : []),
    ],
    voucher: instructions ? voucherSection(instructions, topup.amount, "topup") : null,
  };
}
