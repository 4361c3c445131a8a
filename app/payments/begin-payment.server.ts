import type { AppLoadContext } from "@remix-run/node";
import type { BeginPaymentInput, BeginPaymentResult } from "./payments.server";
import { rememberSandboxPayer } from "./sandbox/page-access.server";

/**
 * Opens or resumes a payment (an order's, a top-up's) for the customer in this browser: the one
 * way the store starts paying. With the sandbox, this browser is the one remembered as allowed on
 * the payment's page (decision 0081).
 */
export async function beginPaymentHere(
  context: AppLoadContext,
  input: BeginPaymentInput,
): Promise<BeginPaymentResult> {
  const result = await context.payments.begin(input);
  rememberSandboxPayer(context, result.payment);
  return result;
}
