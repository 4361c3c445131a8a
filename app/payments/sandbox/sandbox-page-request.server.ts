import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { createCardSchema, expiryParts } from "./card-rules";
import { mayUseSandboxPage } from "./page-access.server";
import type { RequestContext } from "~/context";

/** The sandbox provider's hosted payment page: the part a real provider would serve itself. */
export async function findSandboxCheckout(context: RequestContext, id: string | undefined) {
  const checkout = context.sandbox && id ? await context.sandbox.findCheckout(id) : null;
  if (!checkout) throw data(null, { status: 404 });
  return checkout;
}

/**
 * In production (a test environment) only the browser the store sent to pay may see and use the
 * page (decision 0081); another is refused before the checkout is even read.
 */
export function sandboxPageRefused(
  context: RequestContext,
  id: string | undefined,
  request: Request,
) {
  if (!context.sandbox || mayUseSandboxPage(context, id ?? "")) return false;
  context.logger.warn({
    msg: "sandbox page refused: not the browser sent to pay",
    requestId: context.requestId,
    method: request.method,
  });
  return true;
}

// The card number and CVC are never echoed back: after an error the customer types them again.
const SENSITIVE_FIELDS = ["card_number", "card_cvc"];

/**
 * The page's forms: a test card paid (or refused, as its number says), or, for a voucher or a
 * transfer, the simulator of its payment or expiry. Back to the store's page after either.
 */
export async function submitSandboxPayment(
  context: RequestContext,
  request: Request,
  id: string | undefined,
) {
  if (sandboxPageRefused(context, id, request)) return data(null, { status: 403 });
  const checkout = await findSandboxCheckout(context, id);
  if (checkout.status !== "open") return redirect(checkout.return_url, { status: 303 });
  const formData = await request.formData();
  if (checkout.method !== "card") {
    // The simulator of a voucher paid at a store, a transfer received, or either expiring.
    const intent = formData.get("intent");
    if (intent !== "paid" && intent !== "expired") return data(null, { status: 400 });
    try {
      const done = await context.sandbox!.simulate(checkout.id, intent);
      return redirect(done?.return_url ?? checkout.return_url, { status: 303 });
    } catch (error) {
      return databaseBusyOrRethrow(context, "sandbox simulation", error, null);
    }
  }
  const submission = parseWithZod(formData, { schema: createCardSchema() });
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: SENSITIVE_FIELDS }), { status: 400 });
  }
  try {
    const paid = await context.sandbox!.pay(
      checkout.id,
      submission.value.card_number,
      expiryParts(submission.value.card_expiry) ?? undefined,
    );
    return redirect(paid?.return_url ?? checkout.return_url, { status: 303 });
  } catch (error) {
    const reply = submission.reply({
      formErrors: [DATABASE_BUSY_KEY],
      hideFields: SENSITIVE_FIELDS,
    });
    return databaseBusyOrRethrow(context, "sandbox payment", error, reply);
  }
}
