import { parseWithZod } from "@conform-to/zod/v4";
import { data, type AppLoadContext } from "@remix-run/node";
import type { Customer } from "~/auth/tokens";
import type { Config } from "~/config.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import type { RateLimitRule } from "~/lib/rate-limit";
import { topupSchema } from "./topup-schema";
import { payFor } from "~/payments/pay-for.server";
import { createTopup, savedLines, topupKeyUsed, topupPayment } from "./topups.server";

const HOUR_MS = 60 * 60 * 1000;

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
 * customers top up the same line every week.
 */
export async function loadTopupForm(context: AppLoadContext, customer: Customer | null) {
  return {
    savedLines: customer ? await savedLines(context.db, customer.sub) : [],
    askEmail: customer === null,
    idempotencyKey: issueFormKey(context, "topup"),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
  };
}

/**
 * The top-up form sent: checked, its key this browser's own, limited (a new top-up only: the same
 * form sent again creates nothing and costs nothing), created once per key, then on to its payment.
 */
export async function submitTopup(
  context: AppLoadContext,
  request: Request,
  customer: Customer | null,
) {
  const lines = customer ? await savedLines(context.db, customer.sub) : [];
  const submission = parseWithZod(await request.formData(), {
    schema: topupSchema({ savedLines: lines, askEmail: customer === null }),
  });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { phoneNumber, amount, idempotencyKey, method, email } = submission.value;
  if (!isOwnFormKey(context, "topup", idempotencyKey)) {
    // A key this browser was not given (copied from elsewhere, or its secret expired) opens
    // nothing: the form comes back, values kept, with a key of this browser's own.
    const refused = submission.reply({ formErrors: ["topup:errors.staleForm"] });
    return data(replyWithFormKey(refused, issueFormKey(context, "topup")), { status: 409 });
  }
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
    return await payFor(context, topupPayment(created.topup), method);
  } catch (error) {
    return databaseBusyOrRethrow(
      context,
      "top-up",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}
