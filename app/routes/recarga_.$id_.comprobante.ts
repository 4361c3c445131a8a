import type { LoaderFunctionArgs } from "react-router";
import { requestContext } from "~/lib/router-context.server";
import { loadTopupReceiptPdf } from "~/topup/receipt-pdf.server";

/** The top-up's receipt or voucher as a PDF, its key in the address as the receipt page's. */
export function loader({ params, context: routerContext }: LoaderFunctionArgs) {
  return loadTopupReceiptPdf(routerContext.get(requestContext), params.id);
}
