import type { RequestContext } from "~/context";
import { formatPrice, formatTotal } from "~/catalog/money";
import { getFixedT } from "~/i18n/i18n.server";
import { paymentState } from "~/payments/payment-state";
import { paymentView } from "~/payments/payment-view.server";
import {
  receiptPdf,
  receiptPdfResponse,
  voucherSection,
  type ReceiptPdf,
} from "~/payments/receipt-pdf.server";
import { loadOwnOrder } from "./order-page-request.server";
import { ORDER_PAYMENT_PURPOSE } from "./order-payments.server";
import type { Order } from "./orders.server";

/**
 * The order's page as a PDF (decision 0141): its folio, status and total, its plans, how it was
 * paid, or the voucher or transfer still to pay. For exactly whoever may open the page
 * (loadOwnOrder: 404 for anyone else); nothing the page does not show.
 */
export async function loadOrderReceiptPdf(context: RequestContext, request: Request) {
  const { order } = await loadOwnOrder(context, request);
  const payment = paymentView(await context.payments.latest(ORDER_PAYMENT_PURPOSE, order.ref));
  const body = await receiptPdf(orderReceipt(order, payment));
  return receiptPdfResponse(body, `pedido-${order.folio}.pdf`);
}

export function orderReceipt(
  order: Pick<Order, "folio" | "status" | "total" | "lines">,
  payment: ReturnType<typeof paymentView>,
): ReceiptPdf {
  const t = getFixedT("commerce");
  const { paid, instructions, statusKey } = paymentState(order.status, payment);
  return {
    title: `${getFixedT()("pages.confirmation.heading")} ${order.folio}`,
    facts: [
      [t("confirmation.folio"), order.folio],
      [t("confirmation.status"), t(`confirmation.statuses.${statusKey}`)],
      [paid ? t("confirmation.total") : t("confirmation.totalDue"), formatTotal(order.total)],
    ],
    lines: {
      heading: t("confirmation.linesHeading"),
      rows: order.lines.map((line) => [
        `${line.quantity} × ${line.planName} (${formatPrice(line.unitPrice)})`,
        formatPrice(line.lineTotal),
      ]),
      total: [t("cart.total"), formatTotal(order.total)],
    },
    notes:
      paid && payment?.cardBrand && payment.cardLast4
        ? [
            t("confirmation.paidWith", {
              brand: t(`payment.brands.${payment.cardBrand}`),
              last4: payment.cardLast4,
            }),
          ]
        : [],
    voucher: instructions ? voucherSection(instructions, order.total, "order") : null,
  };
}
