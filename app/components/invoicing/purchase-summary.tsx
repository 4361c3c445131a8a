import { formatPrice, formatTotal } from "~/catalog/money";
import { Alert } from "~/components/ui/alert";
import { DetailsList } from "~/components/ui/details-list";
import { useTranslation } from "~/i18n/react";

export interface PurchaseSummaryView {
  kind: "order" | "topup";
  folio: string;
  total: number;
  paidAt: string | null;
  items: Array<{ description: string; quantity: number; unitPrice: number }>;
  invoiceability:
    | { open: true; deadline: string }
    | { open: false; reason: "not_paid" | "cancelled" | "expired"; deadline: string | null };
}

/** What is being invoiced, and until when it may be (or why it may not). */
export function PurchaseSummary({
  purchase,
  issued,
}: {
  purchase: PurchaseSummaryView;
  issued: boolean;
}) {
  const { t } = useTranslation("invoicing");
  const { invoiceability } = purchase;
  return (
    <section
      aria-labelledby="invoice-purchase"
      className="mb-8 rounded-lg border border-slate-200 bg-white p-5"
      data-testid="invoice-purchase-summary"
    >
      <h2 id="invoice-purchase" className="text-xl font-bold text-slate-900">
        {purchase.kind === "order"
          ? t("purchase.order", { folio: purchase.folio })
          : t("purchase.topup", { folio: purchase.folio })}
      </h2>
      <ul className="mt-2 text-slate-800">
        {purchase.items.map((item) => (
          <li key={item.description}>
            {t("purchase.quantity", { count: item.quantity, description: item.description })} (
            {formatPrice(item.unitPrice)})
          </li>
        ))}
      </ul>
      <DetailsList
        rows={[
          {
            label: t("purchase.total"),
            value: formatTotal(purchase.total),
            testId: "invoice-purchase-total",
          },
          ...(purchase.paidAt
            ? [{ label: t("purchase.paidAt"), value: purchase.paidAt, testId: "invoice-paid-at" }]
            : []),
        ]}
      />
      {issued ? null : invoiceability.open ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="invoice-deadline">
          {t("purchase.deadline", { deadline: invoiceability.deadline })}
        </p>
      ) : (
        <Alert tone="info" className="mt-4" testId="invoice-closed">
          {t(`closed.${invoiceability.reason}`, { deadline: invoiceability.deadline ?? "" })}
        </Alert>
      )}
    </section>
  );
}
