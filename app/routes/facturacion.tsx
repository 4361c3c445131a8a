import type { SubmissionResult } from "@conform-to/react";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  data,
  useActionData,
  useLoaderData,
} from "react-router";
import { getCustomer } from "~/auth/session.server";
import { InvoiceCard } from "~/components/invoicing/invoice-card";
import { InvoiceForm } from "~/components/invoicing/invoice-form";
import { InvoiceLookupForm } from "~/components/invoicing/invoice-lookup-form";
import { PurchaseList } from "~/components/invoicing/purchase-list";
import { PurchaseSummary } from "~/components/invoicing/purchase-summary";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { submitInvoiceLookup } from "~/invoicing/invoice-lookup-request.server";
import { loadInvoicingPage, submitInvoice } from "~/invoicing/invoice-request.server";
import { invoiceDownloadPath } from "~/invoicing/paths";
import { titleMeta } from "~/lib/meta";
import { requestContext } from "~/lib/router-context.server";

// Card brands are the payment's, worded once in the commerce messages.
export const handle = { i18n: ["invoicing", "commerce"], query: ["pedido", "recarga", "folio"] };

/** Its address may carry a receipt's key: search engines must not keep it. */
export const meta: typeof titleMeta = (args) => [
  ...titleMeta(args),
  { name: "robots", content: "noindex" },
];

export { headers } from "~/lib/route-headers";

/**
 * /facturacion (issue 29): a purchase's invoice, or the form to ask for it, with the key that
 * opens the purchase (`?pedido=`, `?recarga=`); without one, the signed-in customer's paid
 * purchases and the lookup by folio and e-mail (`?folio=` fills it in).
 */
export async function loader({ request, context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const page = await loadInvoicingPage(context, request);
  const folio = url.searchParams.get("folio") ?? "";
  return data(
    {
      title: getFixedT("invoicing")("title"),
      signedIn: getCustomer(context) !== null,
      folio: /^[A-Za-z0-9-]{1,20}$/.test(folio) ? folio.toUpperCase() : "",
      page,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export function action({ request, context: routerContext, url }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  const params = url.searchParams;
  return params.has("pedido") || params.has("recarga")
    ? submitInvoice(context, request)
    : submitInvoiceLookup(context, request);
}

export default function InvoicingPage() {
  const { page, signedIn, folio } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as
    { result: SubmissionResult<string[]>; sent?: boolean } | undefined;
  const { t } = useTranslation("invoicing");
  return (
    <>
      <PageHeader title={t("heading")}>{t("intro")}</PageHeader>
      {page.mode === "lookup" ? (
        <>
          {page.purchases ? <PurchaseList purchases={page.purchases} /> : null}
          <InvoiceLookupForm
            folio={folio}
            sent={answer?.sent === true}
            lastResult={answer?.result}
          />
        </>
      ) : (
        <>
          <PurchaseSummary purchase={page.purchase} issued={page.mode === "issued"} />
          {page.mode === "issued" ? (
            <InvoiceCard
              invoice={page.invoice}
              xmlHref={invoiceDownloadPath(page.purchase, "xml")}
              pdfHref={invoiceDownloadPath(page.purchase, "pdf")}
            />
          ) : page.purchase.invoiceability.open ? (
            <section aria-labelledby="invoice-form-heading">
              <h2 id="invoice-form-heading" className="mb-4 text-xl font-bold text-slate-900">
                {t("form.heading")}
              </h2>
              <InvoiceForm
                askCardKind={page.askCardKind}
                card={
                  page.purchase.payment?.cardLast4
                    ? {
                        brand: t(
                          `commerce:payment.brands.${page.purchase.payment.cardBrand ?? "other"}`,
                        ),
                        last4: page.purchase.payment.cardLast4,
                      }
                    : null
                }
                savedRfcMasked={page.savedRfcMasked}
                savedRfcKind={page.savedRfcKind}
                signedIn={signedIn}
                defaults={page.defaults}
                lastResult={answer?.result}
              />
            </section>
          ) : null}
        </>
      )}
    </>
  );
}
