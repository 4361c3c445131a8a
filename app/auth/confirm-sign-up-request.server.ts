import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { isCognitoError } from "./cognito-error";
import { mapCognitoError } from "./errors";
import {
  awaitSignUpCode,
  cognitoErrorReply,
  completeAutoSignIn,
  invalidReply,
  messageLimited,
  rateLimited,
  toSignInAfterConfirmation,
} from "./flow.server";
import { confirmSignUpFormSchema } from "./schemas";
import { openAutoSignIn, readPending } from "./session.server";
import { authPath } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** Confirmed (now or before) without signing in: sign-in with the email filled in. */
function toSignIn(context: RequestContext, username: string, key: string) {
  return toSignInAfterConfirmation(context, username, key, readPending(context)?.redirectTo);
}

/**
 * The code that confirms a new account (or, with the "resend" button, a new code); then on to
 * signing in, automatically when the sign-up offered it.
 */
export async function submitConfirmSignUp(context: RequestContext, request: Request) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  const submission = parseWithZod(formData, { schema: confirmSignUpFormSchema(intent) });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  const { username } = submission.value;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const { client } = context.identity;

  if (intent === "resend") {
    const tooMany = await messageLimited(context, submission, username);
    if (tooMany) return tooMany;
    try {
      const sent = await client.resendConfirmationCode(username);
      const destination = sent.CodeDeliveryDetails?.Destination;
      const pending = readPending(context);
      const sameAccount = pending?.username.toLowerCase() === username.toLowerCase();
      awaitSignUpCode(context, {
        username,
        redirectTo: pending?.redirectTo,
        // A new code does not reopen the automatic sign-in window: Cognito's session is the same.
        autoSignIn: sameAccount ? pending?.autoSignIn : undefined,
        delivery: destination
          ? { destination, medium: sent.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
          : undefined,
      });
      setFlash(context, { kind: "success", key: "auth:flash.codeResent" });
      return redirect(authPath("confirm-sign-up"), { status: 303 });
    } catch (error) {
      // Spec §4: "User is already confirmed." on resend counts as success.
      if (
        isCognitoError(error) &&
        mapCognitoError(error.code, error.message, "ResendConfirmationCode").key ===
          "alreadyConfirmed"
      ) {
        return toSignIn(context, username, "auth:flash.alreadyConfirmed");
      }
      return cognitoErrorReply(context, submission, error, "ResendConfirmationCode", username);
    }
  }

  const { confirmation_code: code } = submission.value as { confirmation_code?: string };
  if (!code) return invalidReply(submission);
  const pending = readPending(context);
  const session = openAutoSignIn(pending, username);
  try {
    const confirmed = await client.confirmSignUp(username, code, session ?? undefined);
    if (confirmed.Session) {
      return await completeAutoSignIn({
        context,
        submission,
        username,
        session: confirmed.Session,
        redirectTo: pending?.redirectTo,
      });
    }
    // This browser signed up, but the window closed before the code came back (spec).
    const offered =
      pending?.autoSignIn && pending.username.toLowerCase() === username.toLowerCase();
    return toSignIn(
      context,
      username,
      offered ? "auth:flash.notConfirmedOnTime" : "auth:flash.signUpConfirmed",
    );
  } catch (error) {
    if (
      isCognitoError(error) &&
      mapCognitoError(error.code, error.message, "ConfirmSignUp").key === "alreadyConfirmed"
    ) {
      return toSignIn(context, username, "auth:flash.alreadyConfirmed");
    }
    return cognitoErrorReply(context, submission, error, "ConfirmSignUp", username);
  }
}
