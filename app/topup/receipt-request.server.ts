import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { receiptPath } from "./paths";
import { paymentChoiceSchema } from "~/payments/payment-choice-schema";
import { payFor } from "~/payments/pay-for.server";
import { formatDate } from "~/lib/dates";
import { isBssRefused, isBssUnavailable } from "~/line/bss";
import { lineJobOutcome, topupJobId } from "~/line/line-jobs.server";
import { formatData } from "./amounts";
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

/** What a paid top-up did to its line, as its receipt shows it. */
export type TopupApplication =
  /** Not paid, or paid before top-ups were applied by the store: nothing to say. */
  | { state: "none" }
  /** Queued, or waiting for the BSS to be back. */
  | { state: "pending" }
  /** The BSS refused it: the customer is asked to write with the folio. */
  | { state: "refused" }
  /**
   * Applied. `line`: the line's vigencia and data as the BSS tells them now; null when it could
   * not be asked (the receipt still says the top-up was applied).
   */
  | {
      state: "applied";
      line: {
        validUntil: string | null;
        data: {
          remaining: ReturnType<typeof formatData>;
          total: ReturnType<typeof formatData>;
        } | null;
        /** Suspended for want of a registration: the package waits for it (decision 0100). */
        unregistered: boolean;
      } | null;
    };

/**
 * Whether the paid top-up reached its line (the line-jobs queue) and, once it has, the line's new
 * vigencia and data from the BSS. Never fails for the BSS: out of reach, the receipt says it could
 * not read the line now and the rest of the page works.
 */
export async function loadTopupApplication(
  context: RequestContext,
  topup: Topup,
): Promise<TopupApplication> {
  if (topup.status !== "paid") return { state: "none" };
  const outcome = await lineJobOutcome(context.db, topupJobId(topup.id));
  if (!outcome) return { state: "none" };
  if (outcome.state === "pending") {
    // The customer is waiting for it: a round now, rather than at the next poll.
    context.lineJobs.nudge();
    return { state: "pending" };
  }
  if (outcome.state === "refused") return { state: "refused" };
  try {
    const line = await context.bss.findLine(topup.phoneNumber);
    if (!line) return { state: "applied", line: null };
    const data = line.balances.dataMb;
    return {
      state: "applied",
      line: {
        validUntil: line.package ? formatDate(line.package.endsAt) : null,
        data: data
          ? { remaining: formatData(data.remaining), total: formatData(data.total) }
          : null,
        unregistered: line.status === "unregistered",
      },
    };
  } catch (error) {
    if (!isBssUnavailable(error) && !isBssRefused(error)) throw error;
    context.logger.warn({
      msg: "receipt without its line: BSS unavailable",
      requestId: context.requestId,
      reason: error.reason,
    });
    return { state: "applied", line: null };
  }
}
