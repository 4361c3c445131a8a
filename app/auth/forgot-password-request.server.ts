import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { isCognitoError } from "./cognito-error";
import { answersAsCodeSent } from "./errors";
import { cognitoErrorReply, invalidReply, messageLimited, rateLimited } from "./flow.server";
import { usernameOnlySchema } from "./schemas";
import { setPending } from "./session.server";
import { authPath, resetPasswordNextStep } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/**
 * An address that forgot its password: a reset code is sent, and every address gets the same
 * answer (decision 0062).
 */
export async function submitForgotPassword(context: RequestContext, request: Request) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: usernameOnlySchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const { username } = submission.value;
  const limited =
    (await rateLimited(context, submission, username)) ??
    (await messageLimited(context, submission, username));
  if (limited) return limited;
  try {
    await context.identity.client.forgotPassword(username);
  } catch (error) {
    if (!isCognitoError(error) || !answersAsCodeSent(error.code, error.message)) {
      return cognitoErrorReply(context, submission, error, "ForgotPassword", username);
    }
  }
  // The same answer for every address: the one typed, masked, whether it has an account or not.
  setPending(context, { username, delivery: { destination: username, medium: "EMAIL" } });
  setFlash(context, { kind: "success", key: "auth:flash.resetCodeSent" });
  return redirect(authPath(resetPasswordNextStep("code-sent").view), { status: 303 });
}
