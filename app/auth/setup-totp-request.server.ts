import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import {
  challengeErrorReply,
  requirePending,
  respondToChallenge,
  type PendingChallenge,
} from "./challenge.server";
import { cognitoErrorReply, errorReply, invalidReply, rateLimited } from "./flow.server";
import { requireRecentAuthentication } from "./reauth.server";
import { setupTotpSchema } from "./schemas";
import { noticeSecurityChange } from "./security-notices.server";
import {
  clearAccountTotpSetup,
  readAccountTotpSetup,
  readPending,
  rememberMfa,
  requireCustomer,
  startAccountTotpSetup,
} from "./session.server";
import { authPath, CHALLENGE } from "./steps";
import { setFlash } from "~/lib/flash.server";
import type { RequestContext } from "~/context";

/** The name the authenticator app shows next to the codes. */
const DEVICE_NAME = "Conecta Móvil";

type Mode =
  | { kind: "sign-in"; username: string; secret: string; pending: PendingChallenge }
  | { kind: "account"; sub: string; username: string; secret: string | null; accessToken: string };

/**
 * Two doors lead here: a sign-in that must set up MFA (Cognito's MFA_SETUP challenge), and a
 * signed-in customer adding an authenticator app from the account overview.
 */
export function resolveMode(request: Request, context: RequestContext): Mode {
  if (readPending(context)?.challengeName === CHALLENGE.setup) {
    const pending = requirePending(context, (setup) => Boolean(setup.totpSecret));
    return { kind: "sign-in", username: pending.username, secret: pending.totpSecret!, pending };
  }
  const { customer, accessToken } = requireCustomer(context, request);
  const secret = readAccountTotpSetup(context, customer.sub);
  return { kind: "account", sub: customer.sub, username: customer.email, secret, accessToken };
}

/**
 * An authenticator app set up: started from the account, or confirmed with its first code (at
 * sign-in or from the account).
 */
export async function submitSetupTotp(context: RequestContext, request: Request) {
  const mode = resolveMode(request, context);
  const formData = await request.formData();
  const { client } = context.identity;

  if (formData.get("intent") === "start" && mode.kind === "account") {
    // A new authenticator app replaces the one the account had: a recent authentication first.
    const reauth = requireRecentAuthentication(context, "/my-account");
    if (reauth) return reauth;
    const submission = parseWithZod(formData, {
      schema: setupTotpSchema().partial(),
    });
    try {
      const { SecretCode } = await client.associateSoftwareToken({ accessToken: mode.accessToken });
      startAccountTotpSetup(context, mode.sub, SecretCode);
      return redirect(authPath("setup-totp"), { status: 303 });
    } catch (error) {
      return cognitoErrorReply(context, submission, error, "AssociateSoftwareToken", mode.username);
    }
  }

  const submission = parseWithZod(formData, { schema: setupTotpSchema() });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  const limited = await rateLimited(context, submission, mode.username);
  if (limited) return limited;
  const code = submission.value.confirmation_code;

  if (mode.kind === "account") {
    if (!mode.secret) return errorReply(submission, "totpSetupExpired", 400);
    try {
      await client.verifySoftwareToken({ accessToken: mode.accessToken }, code, DEVICE_NAME);
      await client.setUserMfaPreference(mode.accessToken, {
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      });
    } catch (error) {
      return cognitoErrorReply(context, submission, error, "VerifySoftwareToken", mode.username);
    }
    clearAccountTotpSetup(context);
    await noticeSecurityChange(context, mode.username, "mfa_changed");
    const kept = context.session?.tokens.mfa?.enabled ?? [];
    rememberMfa(context, {
      enabled: [...kept.filter((name) => name !== CHALLENGE.totp), CHALLENGE.totp],
      preferred: CHALLENGE.totp,
    });
    setFlash(context, { kind: "success", key: "auth:flash.totpEnabled" });
    return redirect("/my-account", { status: 303 });
  }

  const { pending } = mode;
  let session: string;
  try {
    const verified = await client.verifySoftwareToken(
      { session: pending.session },
      code,
      DEVICE_NAME,
    );
    if (verified.Status && verified.Status !== "SUCCESS")
      return errorReply(submission, "invalidCode", 400);
    session = verified.Session ?? pending.session;
  } catch (error) {
    return challengeErrorReply(context, submission, error, "VerifySoftwareToken", pending);
  }
  return respondToChallenge({ context, submission, pending, session, responses: {} });
}
