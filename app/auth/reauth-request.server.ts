import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { setFlash } from "~/lib/flash.server";
import { authT, cognitoErrorReply, invalidReply, rateLimited, signOut } from "./flow.server";
import { markAuthenticatedNow } from "./reauth.server";
import { safeRedirectPath, signInPathFor } from "./redirect";
import { reauthenticationSchema } from "./schemas";
import type { SignedIn } from "./session.server";
import type { RequestContext } from "~/context";

/**
 * /my-account/confirmar-identidad: the password typed again before a sensitive change (decision
 * 0134). Cognito checks it with a sign-in whose tokens are not kept: its refresh token is
 * revoked at once. A second factor asked next means the password was right, which is what this
 * step proves. An account without a password (a social sign-in, a passkey) signs in again.
 */
export function loadReauthentication(context: RequestContext, signedIn: SignedIn, url: URL) {
  return {
    title: authT()("reauth.title"),
    email: signedIn.customer.email,
    redirectTo: safeRedirectPath(url.searchParams.get("redirectTo")),
  };
}

export async function submitReauthentication(
  context: RequestContext,
  request: Request,
  signedIn: SignedIn,
) {
  const formData = await request.formData();
  const redirectTo = safeRedirectPath(formData.get("redirectTo"));
  if (formData.get("intent") === "sign-in-again") {
    await signOut(context);
    setFlash(context, { kind: "info", key: "auth:flash.signInAgain" });
    return redirect(signInPathFor(redirectTo), { status: 303 });
  }
  const submission = parseWithZod(formData, { schema: reauthenticationSchema() });
  const hideFields = ["password"];
  if (submission.status !== "success") return invalidReply(submission, { hideFields });
  const { email } = signedIn.customer;
  const limited = await rateLimited(context, submission, email);
  if (limited) return limited;
  const { client } = context.identity;
  try {
    const response = await client.signIn(email, submission.value.password);
    const refreshToken = response.AuthenticationResult?.RefreshToken;
    // Only the proof is wanted: the tokens of this check open nothing.
    if (refreshToken) void client.revokeToken(refreshToken).catch(() => undefined);
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "InitiateAuth", email);
  }
  markAuthenticatedNow(context);
  setFlash(context, { kind: "success", key: "auth:flash.reauthenticated" });
  return redirect(redirectTo, { status: 303 });
}
