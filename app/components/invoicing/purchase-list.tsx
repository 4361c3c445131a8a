import { Link } from "react-router";
import { formatTotal } from "~/catalog/money";
import { DataTable } from "~/components/ui/data-table";
import { useTranslation } from "~/i18n/react";

export interface PurchaseRow {
  kind: "order" | "topup";
  folio: string;
  total: number;
  paidAt: string | null;
  path: string;
  invoice: { uuid: string; cancelled: boolean } | null;
  open: boolean;
}

const linkClass = "font-medium text-secondary underline underline-offset-4";

/** The signed-in customer's paid purchases, each with its invoice or the way to ask for one. */
export function PurchaseList({ purchases }: { purchases: PurchaseRow[] }) {
  const { t } = useTranslation("invoicing");
  return (
    <section aria-labelledby="invoice-purchases" className="mb-10">
      <h2 id="invoice-purchases" className="text-xl font-bold text-slate-900">
        {t("list.heading")}
      </h2>
      {purchases.length === 0 ? (
        <p className="mt-2 text-slate-800">{t("list.empty")}</p>
      ) : (
        <DataTable
          className="mt-3"
          caption={t("list.caption")}
          testId="invoice-purchases"
          rowTestId="invoice-purchase"
          rows={purchases}
          rowKey={(row) => row.folio}
          columns={[
            {
              header: t("list.purchase"),
              cell: (row) =>
                row.kind === "order"
                  ? t("purchase.order", { folio: row.folio })
                  : t("purchase.topup", { folio: row.folio }),
            },
            { header: t("list.paidAt"), cell: (row) => row.paidAt ?? "—" },
            { header: t("list.total"), cell: (row) => formatTotal(row.total) },
            {
              header: t("list.invoice"),
              cell: (row) =>
                row.invoice ? (
                  <Link to={row.path} className={linkClass}>
                    {row.invoice.cancelled ? t("list.cancelled") : t("list.view")}
                  </Link>
                ) : row.open ? (
                  <Link to={row.path} className={linkClass}>
                    {t("list.request")}
                  </Link>
                ) : (
                  t("list.closed")
                ),
              cellProps: () => ({ "data-testid": "invoice-purchase-action" }),
            },
          ]}
        />
      )}
    </section>
  );
}
