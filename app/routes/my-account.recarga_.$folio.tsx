import { type LoaderFunctionArgs, data, redirect } from "react-router";
import { requireCustomer } from "~/auth/session.server";
import { receiptPath } from "~/topup/paths";
import { findCustomerTopup } from "~/topup/topups.server";
import { requestContext } from "~/lib/router-context.server";

/**
 * Receipts used to live here, named by folio; they now live at /recarga/<id>. A signed-in
 * customer's old link still leads to their receipt; anyone else's is a 404 that tells nothing.
 */
export async function loader({ request, context: routerContext, params }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const { customer } = requireCustomer(context, request);
  const topup = params.folio
    ? await findCustomerTopup(context.db, customer.sub, params.folio)
    : null;
  if (!topup) throw data(null, { status: 404 });
  return redirect(receiptPath(topup.id));
}

/**
 * Never rendered (the loader always answers with a redirect or a 404), but a route with a
 * component is a page: its 404 gets the site's "Página no encontrada", not an empty body.
 */
export default function OldReceiptAddress() {
  return null;
}
