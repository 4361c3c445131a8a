import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { cognitoErrorReply, invalidReply, rateLimited } from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { confirmVerifyUserSchema } from "./schemas";
import { rememberAccountEmail } from "./account-emails.server";
import { refreshSessionNow, requireCustomer } from "./session.server";
import { authPath, type ContactAttribute } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** The contact being proved and where to go afterwards (a same-site path), from the address. */
export function readQuery(request: Request): {
  attribute: ContactAttribute | null;
  redirectTo: string;
} {
  const params = new URL(request.url).searchParams;
  const attr = params.get("attr");
  return {
    attribute: attr === "email" || attr === "phone_number" ? attr : null,
    redirectTo: safeRedirectPath(params.get("redirectTo")),
  };
}

/**
 * The code that proves a contact of the account (e-mail or phone).
 */
export async function submitConfirmVerifyUser(context: RequestContext, request: Request) {
  const { accessToken, customer } = requireCustomer(context, request);
  const { attribute, redirectTo } = readQuery(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, {
    schema: confirmVerifyUserSchema(),
  });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  if (!attribute) return redirect(authPath("verify-user"), { status: 303 });
  const limited = await rateLimited(context, submission, customer.email);
  if (limited) return limited;
  try {
    await context.identity.client.verifyUserAttribute(
      accessToken,
      attribute,
      submission.value.confirmation_code,
    );
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "VerifyUserAttribute", customer.email);
  }
  // The ID token says whether the contact is verified: new tokens now, so the account shows it.
  await refreshSessionNow(context);
  await rememberAccountEmail(context);
  setFlash(context, { kind: "success", key: "auth:flash.contactVerified" });
  return redirect(redirectTo, { status: 303 });
}
