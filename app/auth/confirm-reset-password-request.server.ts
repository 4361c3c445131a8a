import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { isCognitoError } from "./cognito-error";
import { answersAsCodeSent } from "./errors";
import { cognitoErrorReply, invalidReply, messageLimited, rateLimited } from "./flow.server";
import { confirmResetPasswordFormSchema } from "./schemas";
import { readPending, setPending } from "./session.server";
import { noticeSecurityChange } from "./security-notices.server";
import { recordAccountSignOut } from "./sign-out-everywhere.server";
import { authPath, resetPasswordNextStep } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/**
 * The reset code and the new password (or, with the "resend" button, a new code): the password
 * is changed, every session of the account ends (decision 0134), and the customer goes on to
 * sign in with it.
 */
export async function submitConfirmResetPassword(context: RequestContext, request: Request) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, {
    schema: confirmResetPasswordFormSchema(intent, context.identity.passwordPolicy),
  });
  const hideFields = ["password", "confirm_password", "confirmation_code"];
  if (submission.status !== "success") return invalidReply(submission, { hideFields });
  const { username } = submission.value;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const { client } = context.identity;
  const redirectTo = readPending(context)?.redirectTo;

  if (intent === "resend" || !("password" in submission.value)) {
    const tooMany = await messageLimited(context, submission, username);
    if (tooMany) return tooMany;
    try {
      await client.forgotPassword(username);
    } catch (error) {
      if (!isCognitoError(error) || !answersAsCodeSent(error.code, error.message)) {
        return cognitoErrorReply(context, submission, error, "ForgotPassword", username);
      }
    }
    // As on the first request: the same answer whether the address has an account or not.
    setPending(context, {
      username,
      redirectTo,
      delivery: { destination: username, medium: "EMAIL" },
    });
    setFlash(context, { kind: "success", key: "auth:flash.codeResent" });
    return redirect(authPath("confirm-reset-password"), { status: 303 });
  }

  const { confirmation_code, password } = submission.value;
  try {
    await client.confirmForgotPassword(username, confirmation_code, password);
    // Whoever held a session (a copy of its cookie included) needs the new password now.
    await recordAccountSignOut(context, username);
    await noticeSecurityChange(context, username, "password_reset");
    const next = resetPasswordNextStep("password-changed");
    setPending(context, { username });
    setFlash(context, { kind: "success", key: "auth:flash.passwordChanged" });
    return redirect(
      redirectTo
        ? `${authPath(next.view)}?redirectTo=${encodeURIComponent(redirectTo)}`
        : authPath(next.view),
      { status: 303 },
    );
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "ConfirmForgotPassword", username);
  }
}
