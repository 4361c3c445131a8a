import { parseWithZod } from "@conform-to/zod/v4";
import { requirePending, respondToChallenge } from "./challenge.server";
import { invalidReply, rateLimited } from "./flow.server";
import {
  forceNewPasswordSchema,
  requiredAttributeResponseKey,
  requiredAttributesOf,
} from "./schemas";
import { CHALLENGE } from "./steps";
import type { RequestContext } from "~/context";

/** The sign-in waiting for a new password; else back to signing in. */
export function pendingChallenge(context: RequestContext) {
  return requirePending(context, (pending) => pending.challengeName === CHALLENGE.newPassword);
}

/**
 * A new password the pool requires at first sign-in, with the attributes the account lacks.
 */
export async function submitForceNewPassword(context: RequestContext, request: Request) {
  const pending = pendingChallenge(context);
  const attributes = requiredAttributesOf(pending.parameters?.requiredAttributes);
  const formData = await request.formData();
  const submission = parseWithZod(formData, {
    schema: forceNewPasswordSchema(context.identity.passwordPolicy, attributes),
  });
  const hideFields = ["password", "confirm_password"];
  if (submission.status !== "success") return invalidReply(submission, { hideFields });
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const responses: Record<string, string> = { NEW_PASSWORD: submission.value.password };
  for (const name of attributes) {
    responses[requiredAttributeResponseKey(name)] = submission.value[name];
  }
  return respondToChallenge({ context, submission, pending, responses });
}
