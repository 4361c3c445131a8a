import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { asOrderOwner } from "~/auth/email-trust.server";
import { saveCart } from "~/cart/cart-session.server";
import { getCustomer } from "~/auth/session.server";
import { canSeeOrder, readOrderAccess } from "./order-access.server";
import { orderPayment } from "./order-payments.server";
import { confirmationPath, ORDER_AGAIN_INTENT } from "./paths";
import { customerOwnsOrder, findOrder } from "./orders.server";
import { submitEsimChange } from "~/esim/esim-change-request.server";
import { isEsimChangeIntent } from "~/esim/esim-change-schema";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { payFor } from "~/payments/pay-for.server";
import type { RequestContext } from "~/context";

/**
 * The order this browser placed, or one the signed-in customer placed from any browser; else a
 * fatal 404: a missing, unknown or foreign reference all look the same, so the page reveals
 * nothing about orders that are not yours.
 */
export async function loadOwnOrder(context: RequestContext, request: Request) {
  const ref = new URL(request.url).searchParams.get("pedido");
  const access = readOrderAccess(context);
  const found = ref ? await findOrder(context.db, ref) : null;
  const customer = getCustomer(context);
  const owner = customer ? asOrderOwner(context, customer) : null;
  const order =
    found && (canSeeOrder(access, found.ref) || customerOwnsOrder(found, owner)) ? found : null;
  if (!order) throw data(null, { status: 404 });
  return { order, access };
}

/**
 * The order page's buttons: pay after a decline, resume a payment left open, or pay another way
 * than the voucher issued, without losing the order; change one of its eSIMs; or, cancelled,
 * order its plans again.
 */
export async function submitOrderPage(context: RequestContext, request: Request) {
  const { order } = await loadOwnOrder(context, request);
  const formData = await request.formData();
  // A new code for a lost one, or (sandbox) an installation: for whoever may see the codes.
  if (isEsimChangeIntent(formData.get("intent"))) return submitEsimChange(context, order, formData);
  if (formData.get("intent") === ORDER_AGAIN_INTENT) {
    // The cart emptied when the order was placed: a cancelled order's plans go back in it.
    if (order.status !== "cancelled") return redirect(confirmationPath(order.ref), { status: 303 });
    saveCart(
      context,
      order.lines.map((line) => ({ id: line.planId, quantity: line.quantity })),
    );
    return redirect("/cart", { status: 303 });
  }
  if (order.status !== "pending_payment") {
    return redirect(confirmationPath(order.ref), { status: 303 });
  }
  const submission = parseWithZod(formData, { schema: paymentChoiceSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  return payFor(context, orderPayment(order), submission.value);
}
