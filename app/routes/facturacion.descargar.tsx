import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadInvoiceFile } from "~/invoicing/invoice-download.server";

/**
 * An invoice's XML or PDF (`?pedido=…|?recarga=…&formato=xml|pdf`), for whoever may see the
 * purchase: the files are the customer's own, never cached, never indexed.
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  return loadInvoiceFile(context, request);
}
