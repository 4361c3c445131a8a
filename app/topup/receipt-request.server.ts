import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { receiptPath } from "./paths";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { payFor } from "~/payments/pay-for.server";
import { type TopupApplication, topupApplication } from "./topup-application.server";
import { findTopup, type Topup, topupPayment } from "./topups.server";
import { savedCardGuard } from "./topup-request.server";
import type { RequestContext } from "~/context";

/** The top-up whose unguessable id is in the address, or a 404 that tells nothing. */
export async function loadTopup(context: RequestContext, id: string | undefined) {
  const topup = id ? await findTopup(context.db, id) : null;
  if (!topup) throw data(null, { status: 404 });
  return topup;
}

/**
 * Pay after a decline, resume a payment left open, or pay another way than the voucher issued,
 * without a second top-up.
 */
export async function submitReceiptPayment(
  context: RequestContext,
  request: Request,
  id: string | undefined,
) {
  const topup = await loadTopup(context, id);
  if (topup.status !== "pending_payment") {
    return redirect(receiptPath(topup.id), { status: 303 });
  }
  const submission = parseWithZod(await request.formData(), { schema: paymentChoiceSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const reauth = await savedCardGuard(context, {
    customer: context.session?.customer ?? null,
    payment: submission.value,
    phoneNumber: topup.phoneNumber,
    returnTo: receiptPath(topup.id),
  });
  if (reauth) return reauth;
  return payFor(context, topupPayment(topup), submission.value);
}

export type { TopupApplication } from "./topup-application.server";

/**
 * Whether the paid top-up reached its line and, once it has, the line's new vigencia and data
 * (~/topup/topup-application.server.ts, the computation its e-mail shares). While it is queued,
 * the customer is waiting for it: a round now, rather than at the next poll.
 */
export function loadTopupApplication(
  context: RequestContext,
  topup: Topup,
): Promise<TopupApplication> {
  return topupApplication(
    {
      db: context.db,
      bss: context.bss,
      logger: context.logger,
      requestId: context.requestId,
      whilePending: () => context.lineJobs.nudge(),
    },
    topup,
  );
}
