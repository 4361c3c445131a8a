import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import {
  awaitSignUpCode,
  cognitoErrorReply,
  completeAutoSignIn,
  invalidReply,
  rateLimited,
  toSignInAfterConfirmation,
} from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { normalizePhoneNumber, PHONE_RULES } from "./countries";
import { signUpSchema } from "./schemas";
import { autoSignInWindow } from "./session.server";
import { authPath, signUpNextStep } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** Registration closed by the operator: the page does not exist. */
export function refuseWhenClosed(context: RequestContext) {
  if (!context.config.SIGN_UP_ENABLED) throw data(null, { status: 404 });
}

/**
 * A new account: created, then its code to confirm, or signed in at once when the pool allows.
 */
export async function submitSignUp(context: RequestContext, request: Request) {
  refuseWhenClosed(context);
  const formData = await request.formData();
  const schema = signUpSchema(context.identity.passwordPolicy, PHONE_RULES);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return invalidReply(submission, { hideFields: ["password", "confirm_password"] });
  }
  const { username, password, country_code, phone_number } = submission.value;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const attributes = [{ Name: "email", Value: username }];
  if (phone_number) {
    attributes.push({
      Name: "phone_number",
      Value: normalizePhoneNumber(country_code, phone_number),
    });
  }
  const redirectTo = submission.value.redirectTo
    ? safeRedirectPath(submission.value.redirectTo)
    : undefined;
  try {
    const result = await context.identity.client.signUp({ username, password, attributes });
    const next = signUpNextStep(result);
    if (next.step === "COMPLETE_AUTO_SIGN_IN") {
      return await completeAutoSignIn({
        context,
        submission,
        username,
        session: result.Session!,
        redirectTo,
      });
    }
    if (next.step === "DONE") {
      return toSignInAfterConfirmation(context, username, "auth:flash.signUpDone", redirectTo);
    }
    const destination = result.CodeDeliveryDetails?.Destination;
    awaitSignUpCode(context, {
      username,
      redirectTo,
      delivery: destination
        ? { destination, medium: result.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
        : undefined,
      autoSignIn: autoSignInWindow(result.Session),
    });
    setFlash(context, { kind: "success", key: "auth:flash.signUpCodeSent" });
    return redirect(authPath(next.view), { status: 303 });
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "SignUp", username);
  }
}
