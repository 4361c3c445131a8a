import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { isCognitoError } from "./cognito-error";
import {
  cognitoErrorReply,
  continueSignIn,
  invalidReply,
  messageLimited,
  rateLimited,
  awaitSignUpCode,
} from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { signInSchema } from "./schemas";
import { getCustomer, setPending } from "./session.server";
import {
  dropBrowserDevice,
  isUnknownDevice,
  rememberedDeviceFor,
  type BrowserDevice,
} from "./remembered-devices.server";
import { authPath, signInNextStep } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/**
 * E-mail and password: signed in, on to the next step the pool asks for, or refused in Spanish.
 */
/** Spec §4: sign-in is refused while a customer is signed in; they are sent on instead. */
export function refuseWhenSignedIn(context: RequestContext, redirectTo: string | null | undefined) {
  if (!getCustomer(context)) return null;
  setFlash(context, { kind: "info", key: "auth:errors.alreadySignedIn" });
  return redirect(safeRedirectPath(redirectTo), { status: 303 });
}

export async function submitSignIn(context: RequestContext, formData: FormData) {
  const submission = parseWithZod(formData, { schema: signInSchema() });
  if (submission.status !== "success") {
    return invalidReply(submission, { hideFields: ["password"] });
  }
  const { username, password } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  // Carried to the confirmation and reset views only when a page asked for it.
  const requested = submission.value.redirectTo ? redirectTo : undefined;
  const refused = refuseWhenSignedIn(context, redirectTo);
  if (refused) return refused;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;

  const { client } = context.identity;
  const signInWith = async (device: BrowserDevice | null) => {
    const response = await client.signIn(username, password, device ?? undefined);
    return continueSignIn({ context, submission, response, username, redirectTo });
  };
  const device = rememberedDeviceFor(context, username);
  try {
    try {
      return await signInWith(device);
    } catch (error) {
      if (!device || !isUnknownDevice(error)) throw error;
      // Spec §8: a device Cognito no longer knows (forgotten from another browser, removed by
      // an administrator) is dropped here and the sign-in tried once more without it.
      context.logger.info({ requestId: context.requestId }, "remembered device unknown: dropped");
      dropBrowserDevice(context, device.deviceKey);
      return await signInWith(null);
    }
  } catch (error) {
    const next = isCognitoError(error) ? signInNextStep({ type: "error", name: error.code }) : null;
    if (next?.step === "CONFIRM_SIGN_UP") {
      // Cognito sent the code at sign-up; send a fresh one, as it may be long gone, unless this
      // address has had its share of codes (the last one still works).
      const delivery = (await messageLimited(context, submission, username))
        ? null
        : await client.resendConfirmationCode(username).catch(() => null);
      awaitSignUpCode(context, {
        username,
        redirectTo: requested,
        delivery: delivery?.CodeDeliveryDetails?.Destination
          ? {
              destination: delivery.CodeDeliveryDetails.Destination,
              medium: delivery.CodeDeliveryDetails.DeliveryMedium ?? "EMAIL",
            }
          : undefined,
      });
      setFlash(context, { kind: "info", key: "auth:flash.confirmSignUpFirst" });
      return redirect(authPath("confirm-sign-up"), { status: 303 });
    }
    if (next?.step === "RESET_PASSWORD") {
      const tooMany = await messageLimited(context, submission, username);
      if (tooMany) return tooMany;
      try {
        const sent = await client.forgotPassword(username);
        const destination = sent.CodeDeliveryDetails?.Destination;
        setPending(context, {
          username,
          redirectTo: requested,
          delivery: destination
            ? { destination, medium: sent.CodeDeliveryDetails?.DeliveryMedium ?? "EMAIL" }
            : undefined,
        });
        setFlash(context, { kind: "info", key: "auth:flash.passwordResetRequired" });
        return redirect(authPath("confirm-reset-password"), { status: 303 });
      } catch (resetError) {
        return cognitoErrorReply(context, submission, resetError, "ForgotPassword", username);
      }
    }
    return cognitoErrorReply(context, submission, error, "InitiateAuth", username);
  }
}
