import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requireRecentAuthentication } from "~/auth/reauth.server";
import type { Customer } from "~/auth/tokens";
import type { Config } from "~/config.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import type { RateLimitRule } from "~/lib/rate-limit";
import { isBssUnavailable } from "~/line/bss";
import { isLineOfAccount } from "~/line/lines.server";
import { pageUrlOf } from "~/lib/data-requests";
import type { PaymentChoice } from "~/payments/payment-choice";
import { checkTopupLine, TOPUP_LINE_PROBLEM_KEYS, type TopupLineCheck } from "./line-check";
import { TOPUP_NUMBER_PARAM } from "./paths";
import { normalisePhoneNumber } from "./phone";
import { type TopupAnswer, topupSchema } from "./topup-schema";
import { payFor } from "~/payments/pay-for.server";
import { loadPaymentOptions } from "~/payments/payment-options.server";
import { createTopup, savedLines, topupKeyUsed, topupPayment } from "./topups.server";
import type { RequestContext } from "~/context";

const HOUR_MS = 60 * 60 * 1000;
/** How long the customer is asked to wait when the BSS could not be asked about the line. */
const BSS_RETRY_AFTER_SECONDS = 30;

/**
 * New top-ups allowed per hour from one client, and to one number from one client. Counted per
 * client for the number too: unpaid top-ups cost nothing, so a count per number alone let anyone
 * block every top-up to a stranger's line (decision 0082).
 */
export function topupLimits(config: Config): Record<"perIp" | "perLine", RateLimitRule> {
  return {
    perIp: { limit: config.TOPUP_RATE_LIMIT_PER_IP, windowMs: HOUR_MS },
    perLine: { limit: config.TOPUP_RATE_LIMIT_PER_LINE, windowMs: HOUR_MS },
  };
}

/**
 * What the top-up form needs, for a signed-in customer (their saved lines) or anyone (an optional
 * e-mail for the receipt). Each visit gets a new idempotency key, bound to this browser: the same
 * form sent twice finds the top-up the first sending created, while a new visit is a new top-up —
 * customers top up the same line every week. `?numero=` (a line page's "Recargar esta línea")
 * fills the number in; anything but ten digits is ignored.
 */
export async function loadTopupForm(context: RequestContext, customer: Customer | null, url?: URL) {
  const number = normalisePhoneNumber(url?.searchParams.get(TOPUP_NUMBER_PARAM) ?? "");
  return {
    prefilledNumber: /^\d{10}$/.test(number) ? number : null,
    savedLines: customer ? await savedLines(context.db, customer.sub) : [],
    askEmail: customer === null,
    signedIn: customer !== null,
    idempotencyKey: issueFormKey(context, "topup"),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
    paymentOptions: await loadPaymentOptions(context),
  };
}

/**
 * A saved card pays at once, without the card's number or its code: for a number that is not one
 * of the account's lines, the customer proves who they are first (decision 0134), so that a
 * copied session cannot top up a stranger's line with the customer's card. Null: go on.
 */
export async function savedCardGuard(
  context: RequestContext,
  input: {
    customer: Customer | null;
    payment: PaymentChoice;
    phoneNumber: string;
    returnTo: string;
  },
): Promise<Response | null> {
  const { customer, payment, phoneNumber } = input;
  if (!customer || !payment.savedCardId) return null;
  if (await isLineOfAccount(context.db, customer.sub, phoneNumber)) return null;
  return requireRecentAuthentication(context, input.returnTo);
}

/**
 * The top-up form sent: checked, its key this browser's own, limited (a new top-up only: the same
 * form sent again creates nothing and costs nothing), its line asked about at the BSS (unknown,
 * or not active: refused before paying; suspended for want of a registration: warned once
 * before paying), created once per key, then on to its payment.
 */
export async function submitTopup(
  context: RequestContext,
  request: Request,
  customer: Customer | null,
) {
  const lines = customer ? await savedLines(context.db, customer.sub) : [];
  const submission = parseWithZod(await request.formData(), {
    schema: topupSchema({ savedLines: lines, askEmail: customer === null }),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { phoneNumber, amount, idempotencyKey, payment, email, fromSavedLine } = submission.value;
  const { unregisteredAcknowledged } = submission.value;
  if (!isOwnFormKey(context, "topup", idempotencyKey)) {
    // A key this browser was not given (copied from elsewhere, or its secret expired) opens
    // nothing: the form comes back, values kept, with a key of this browser's own.
    const refused = submission.reply({ formErrors: ["topup:errors.staleForm"] });
    return data(replyWithFormKey(refused, issueFormKey(context, "topup")), { status: 409 });
  }
  const reauth = await savedCardGuard(context, {
    customer,
    payment,
    phoneNumber,
    returnTo: `${pageUrlOf(request.url).pathname}?${TOPUP_NUMBER_PARAM}=${phoneNumber}`,
  });
  if (reauth) return reauth;
  try {
    if (!(await topupKeyUsed(context.db, idempotencyKey))) {
      const limits = topupLimits(context.config);
      const verdict = await context.rateLimiter.consume([
        { key: `topup-ip:${context.clientAddressKey}`, rule: limits.perIp },
        { key: `topup-line:${phoneNumber}:${context.clientAddressKey}`, rule: limits.perLine },
      ]);
      // A twin of this submission (a double click) may have created the top-up meanwhile: it is
      // answered, never refused.
      if (!verdict.allowed && !(await topupKeyUsed(context.db, idempotencyKey))) {
        context.logger.warn({ msg: "top-ups over the limit", requestId: context.requestId });
        return data(submission.reply({ formErrors: ["topup:errors.rateLimited"] }), {
          status: 429,
          headers: { "Retry-After": String(verdict.retryAfterSeconds) },
        });
      }
      // Before paying: a top-up that could not reach its line is refused here, not after the
      // money is taken. After the limit, so that the form is no free way to ask the BSS which
      // numbers exist.
      let check: TopupLineCheck;
      try {
        check = await checkTopupLine(context.bss, phoneNumber);
      } catch (error) {
        if (!isBssUnavailable(error)) throw error;
        context.logger.warn({
          msg: "top-up not started: BSS unavailable",
          requestId: context.requestId,
          reason: error.reason,
        });
        return data(submission.reply({ formErrors: ["topup:errors.bssUnavailable"] }), {
          status: 503,
          headers: { "Retry-After": String(BSS_RETRY_AFTER_SECONDS) },
        });
      }
      if (check.kind === "problem") {
        const field = fromSavedLine ? "saved_line" : "phone_number";
        return data(
          submission.reply({
            fieldErrors: { [field]: [TOPUP_LINE_PROBLEM_KEYS[check.problem]] },
          }),
          { status: 400 },
        );
      }
      if (check.kind === "unregistered" && unregisteredAcknowledged !== phoneNumber) {
        // Not refused: the package is applied and waits for the registration. Told before paying.
        return data<TopupAnswer>({ ...submission.reply(), unregisteredWarning: phoneNumber });
      }
    }
    const created = await createTopup(context.db, {
      customerSub: customer?.sub ?? null,
      email: customer?.email ?? email,
      idempotencyKey,
      phoneNumber,
      amount,
    });
    if (created.kind === "conflict") {
      return data(submission.reply({ formErrors: ["topup:errors.conflict"] }), { status: 400 });
    }
    // The form sent again finds its top-up: paid or cancelled, the receipt is all there is to show.
    return await payFor(context, topupPayment(created.topup), payment);
  } catch (error) {
    return databaseBusyOrRethrow(
      context,
      "top-up",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}
