import { parseWithZod } from "@conform-to/zod/v4";
import { requirePending, respondToChallenge } from "./challenge.server";
import { invalidReply, rateLimited } from "./flow.server";
import { setupEmailSchema } from "./schemas";
import { CHALLENGE, setupMfaTypes } from "./steps";
import type { RequestContext } from "~/context";

/** The sign-in waiting for an address to send its codes to; else back to signing in. */
export function pendingSetup(context: RequestContext) {
  return requirePending(
    context,
    (pending) =>
      pending.challengeName === CHALLENGE.setup &&
      setupMfaTypes(pending.parameters).includes("EMAIL"),
  );
}

/**
 * The e-mail address that receives the sign-in codes, when the pool asks for one.
 */
export async function submitSetupEmail(context: RequestContext, request: Request) {
  const pending = pendingSetup(context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: setupEmailSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  // Cognito sends a code to this address and answers with the EMAIL_OTP challenge.
  return respondToChallenge({
    context,
    submission,
    pending,
    responses: { EMAIL: submission.value.email },
  });
}
