import type { LoaderFunctionArgs } from "react-router";
import { loadInvoiceFile } from "~/invoicing/invoice-download.server";
import { requestContext } from "~/lib/router-context.server";

/**
 * An invoice's XML or PDF (`?pedido=…|?recarga=…&formato=xml|pdf`), for whoever may see the
 * purchase: the files are the customer's own, never cached, never indexed.
 */
export function loader({ request, context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  return loadInvoiceFile(context, request);
}
