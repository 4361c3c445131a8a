import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { orderLookupSchema } from "./order-lookup";
import { requestOrderLink } from "./order-lookup.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import type { RequestContext } from "~/context";

/**
 * Folio and e-mail → a one-time link to the order, sent to the order's address (decision 0082).
 * A POST, so that the e-mail never sits in an address or a log. The answer is the same whether
 * or not the pair is an order's: this page shows nothing of any order.
 */
export async function submitOrderLookup(context: RequestContext, request: Request) {
  const submission = parseWithZod(await request.formData(), { schema: orderLookupSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), sent: false }, { status: 400 });
  }
  try {
    const outcome = await requestOrderLink(context, submission.value);
    if (outcome.kind === "limited") {
      context.logger.warn({ msg: "order lookups over the limit", requestId: context.requestId });
      return data(
        { result: submission.reply({ formErrors: ["commerce:lookup.limited"] }), sent: false },
        { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } },
      );
    }
  } catch (error) {
    // The counters live in the database: no lookup without them (decision 0075).
    return databaseBusyOrRethrow(context, "order lookup", error, {
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
      sent: false,
    });
  }
  return data({ result: submission.reply(), sent: true });
}
