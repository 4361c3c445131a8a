import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { isCognitoError } from "./cognito-error";
import type { MfaPreference } from "./cognito.server";
import { mapCognitoError } from "./errors";
import { authT, cognitoErrorReply, invalidReply, signOut } from "./flow.server";
import { signInPathFor } from "./redirect";
import { requireRecentAuthentication } from "./reauth.server";
import { mfaPreferenceSchema } from "./schemas";
import { noticeSecurityChange } from "./security-notices.server";
import { rememberMfa } from "./session.server";
import { mfaSettingsOf, type MfaSettings } from "./tokens";
import { CHALLENGE_BY_MFA_TYPE, parseMfaTypes, type MfaType } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** Revoked or expired beyond refresh: the session is over. */
export async function sessionEnded(context: RequestContext) {
  await signOut(context);
  setFlash(context, { kind: "info", key: "auth:errors.invalidTokens" });
  return redirect(signInPathFor("/my-account"), { status: 303 });
}

/**
 * The account's second factors for the overview: kept in the session (an ordinary view asks
 * Cognito nothing, issue 18); a session from before they were kept reads them once and keeps
 * them. Null when the identity service is out of reach (the overview shows the rest); a token
 * Cognito no longer takes ends the session.
 */
export async function accountMfaSettings(
  context: RequestContext,
  accessToken: string,
): Promise<MfaSettings | null> {
  const kept = context.session?.tokens.mfa;
  if (kept) return kept;
  try {
    const mfa = mfaSettingsOf(await context.identity.client.getUser(accessToken));
    rememberMfa(context, mfa);
    return mfa;
  } catch (error) {
    if (
      isCognitoError(error) &&
      mapCognitoError(error.code, error.message, "GetUser").status === 401
    ) {
      throw await sessionEnded(context);
    }
    return null;
  }
}

const PREFERENCE_KEY: Record<MfaType, keyof MfaPreference> = {
  TOTP: "SoftwareTokenMfaSettings",
  SMS: "SMSMfaSettings",
  EMAIL: "EmailMfaSettings",
};

/**
 * The account's choice of a preferred second factor (or none), among those it has enabled, for
 * the signed-in customer whose `accessToken` this is.
 */
export async function submitMfaPreference(
  context: RequestContext,
  request: Request,
  accessToken: string,
) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: mfaPreferenceSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  // Turning the second factor off, or choosing another, needs a recent authentication.
  const reauth = requireRecentAuthentication(context, "/my-account");
  if (reauth) return reauth;
  const choice = submission.value.mfa_type;
  const { client } = context.identity;
  try {
    const user = await client.getUser(accessToken);
    const enabled = parseMfaTypes(JSON.stringify(user.UserMFASettingList ?? []));
    const preference: MfaPreference = {};
    for (const type of enabled) {
      preference[PREFERENCE_KEY[type]] =
        choice === "NONE"
          ? { Enabled: false, PreferredMfa: false }
          : { Enabled: true, PreferredMfa: type === choice };
    }
    if (choice !== "NONE" && !enabled.includes(choice)) {
      return invalidReply(submission, { formErrors: [authT()("account.mfaNotEnabled")] });
    }
    await client.setUserMfaPreference(accessToken, preference);
    rememberMfa(
      context,
      choice === "NONE"
        ? { enabled: [], preferred: null }
        : mfaSettingsOf({
            UserMFASettingList: user.UserMFASettingList,
            PreferredMfaSetting: CHALLENGE_BY_MFA_TYPE[choice],
          }),
    );
  } catch (error) {
    if (isCognitoError(error) && mapCognitoError(error.code, error.message).status === 401) {
      return sessionEnded(context);
    }
    return cognitoErrorReply(context, submission, error, "SetUserMFAPreference");
  }
  const email = context.session?.customer.email;
  if (email) {
    await noticeSecurityChange(context, email, choice === "NONE" ? "mfa_disabled" : "mfa_changed");
  }
  setFlash(context, {
    kind: "success",
    key: choice === "NONE" ? "auth:flash.mfaDisabled" : "auth:flash.mfaPreferenceSaved",
  });
  return redirect("/my-account", { status: 303 });
}
