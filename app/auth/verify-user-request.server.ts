import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { cognitoErrorReply, invalidReply, messageLimited, rateLimited } from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { verifyUserSchema } from "./schemas";
import { requireCustomer } from "./session.server";
import { authPath } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** Where to go once the contact is proved, or skipped: a same-site path. */
export function target(request: Request) {
  return safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
}

/**
 * The contact of the account to prove: a code is sent to it.
 */
export async function submitVerifyUser(context: RequestContext, request: Request) {
  const { accessToken, customer } = requireCustomer(context, request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: verifyUserSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const limited =
    (await rateLimited(context, submission, customer.email)) ??
    (await messageLimited(context, submission, customer.email));
  if (limited) return limited;
  const attribute = submission.value.unverifiedAttr;
  try {
    await context.identity.client.getUserAttributeVerificationCode(accessToken, attribute);
  } catch (error) {
    return cognitoErrorReply(
      context,
      submission,
      error,
      "GetUserAttributeVerificationCode",
      customer.email,
    );
  }
  const query = new URLSearchParams({ attr: attribute, redirectTo: target(request) });
  setFlash(context, { kind: "success", key: "auth:flash.verificationCodeSent" });
  return redirect(`${authPath("confirm-verify-user")}?${query}`, { status: 303 });
}
