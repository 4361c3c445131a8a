import { data, redirect } from "react-router";
import { readOrderAccess, rememberOrder, saveOrderAccess } from "./order-access.server";
import { redeemOrderLink } from "./order-links.server";
import { confirmationPath } from "./paths";
import type { RequestContext } from "~/context";

/**
 * The button of a one-time order link (decision 0082): redeemed once, it opens the order in this
 * browser; a used, expired or unknown link is a 410.
 */
export async function submitOrderLink(context: RequestContext, request: Request) {
  const token = String((await request.formData()).get("clave") ?? "");
  const orderRef = await redeemOrderLink(context.db, token);
  if (!orderRef) return data({ spent: true }, { status: 410 });
  saveOrderAccess(context, rememberOrder(readOrderAccess(context), orderRef));
  return redirect(confirmationPath(orderRef), { status: 303 });
}
