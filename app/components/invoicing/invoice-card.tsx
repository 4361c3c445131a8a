import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { DetailsList } from "~/components/ui/details-list";
import { formatTotal } from "~/catalog/money";
import { useTranslation } from "~/i18n/react";
import type { InvoiceView } from "~/invoicing/invoice-request.server";

/**
 * An issued invoice: its folio and UUID, who it is made out to (the RFC masked), its total and
 * state, and the links to its XML and PDF. Cancelled, it says so (the files say so too).
 */
export function InvoiceCard({
  invoice,
  xmlHref,
  pdfHref,
}: {
  invoice: InvoiceView;
  xmlHref: string;
  pdfHref: string;
}) {
  const { t } = useTranslation("invoicing");
  const status =
    invoice.cancellation === "accepted"
      ? t("issued.cancelled")
      : invoice.cancellation === "pending"
        ? t("issued.cancelling")
        : t("issued.valid");
  return (
    <section
      aria-labelledby="invoice-heading"
      className="rounded-lg border border-slate-200 bg-white p-5"
      data-testid="invoice"
    >
      <h2 id="invoice-heading" className="text-xl font-bold text-slate-900">
        {t("issued.heading")}
      </h2>
      <p className="mt-2 text-slate-800">
        {invoice.email ? t("issued.lead", { email: invoice.email }) : t("issued.leadNoEmail")}
      </p>
      {invoice.sandbox ? (
        <Alert tone="info" className="mt-4" testId="invoice-sandbox">
          {t("issued.sandbox")}
        </Alert>
      ) : null}
      {invoice.cancellation ? (
        <Alert tone="error" className="mt-4" testId="invoice-cancelled">
          {invoice.cancellation === "accepted"
            ? t("issued.cancelledNote")
            : t("issued.cancellingNote")}
        </Alert>
      ) : null}
      <DetailsList
        testId="invoice-facts"
        rows={[
          { label: t("issued.folio"), value: invoice.folio, testId: "invoice-folio" },
          {
            label: t("issued.uuid"),
            value: <span className="font-mono">{invoice.uuid}</span>,
            testId: "invoice-uuid",
          },
          { label: t("issued.receiver"), value: invoice.receiverName, testId: "invoice-receiver" },
          {
            label: t("issued.rfc"),
            value: <span className="font-mono">{invoice.receiverRfcMasked}</span>,
            testId: "invoice-rfc",
          },
          {
            label: t("issued.total"),
            value: formatTotal(Number(invoice.total)),
            testId: "invoice-total",
          },
          { label: t("issued.issuedAt"), value: invoice.issuedAt, testId: "invoice-issued-at" },
          { label: t("issued.status"), value: status, testId: "invoice-status" },
        ]}
      />
      <p className="mt-5 flex flex-wrap gap-3">
        <a
          href={xmlHref}
          className={buttonClass({ size: "lg" })}
          data-testid="invoice-xml"
          download
        >
          {t("issued.downloadXml")}
        </a>
        <a
          href={pdfHref}
          className={buttonClass({ size: "lg" })}
          data-testid="invoice-pdf"
          download
        >
          {t("issued.downloadPdf")}
        </a>
      </p>
      <p className="mt-4 text-sm text-slate-700">{t("issued.onlyOne")}</p>
    </section>
  );
}
