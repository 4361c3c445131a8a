import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { receiptPath } from "./paths";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { payFor } from "~/payments/pay-for.server";
import { findTopup, topupPayment } from "./topups.server";

/** The top-up whose unguessable id is in the address, or a 404 that tells nothing. */
export async function loadTopup(context: AppLoadContext, id: string | undefined) {
  const topup = id ? await findTopup(context.db, id) : null;
  if (!topup) throw data(null, { status: 404 });
  return topup;
}

/**
 * Pay after a decline, resume a payment left open, or pay another way than the voucher issued,
 * without a second top-up.
 */
export async function submitReceiptPayment(
  context: AppLoadContext,
  request: Request,
  id: string | undefined,
) {
  const topup = await loadTopup(context, id);
  if (topup.status !== "pending_payment") {
    return redirect(receiptPath(topup.id), { status: 303 });
  }
  const submission = parseWithZod(await request.formData(), { schema: paymentChoiceSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  return payFor(context, topupPayment(topup), submission.value.payment_method);
}
