import type { LoaderFunctionArgs } from "react-router";
import { loadOrderReceiptPdf } from "~/checkout/order-receipt-pdf.server";
import { requestContext } from "~/lib/router-context.server";

/** The order's receipt or voucher as a PDF (`?pedido=…`), for whoever may see its page. */
export function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  return loadOrderReceiptPdf(routerContext.get(requestContext), request);
}
