import { parseWithZod } from "@conform-to/zod/v4";
import { challengeErrorReply, requirePending, type PendingChallenge } from "./challenge.server";
import {
  AVAILABLE_CHALLENGES_PARAMETER,
  cognitoErrorReply,
  continueSignIn,
  invalidReply,
  rateLimited,
} from "./flow.server";
import {
  answerPasskeySignIn,
  choosePasskeyFactor,
  startPasskeySignIn,
} from "./passkey-sign-in-request.server";
import { safeRedirectPath } from "./redirect";
import { firstFactorSchema, usernameAndRedirectSchema, SERVER_FIRST_FACTORS } from "./schemas";
import { refuseWhenSignedIn, submitSignIn } from "./sign-in-request.server";
import { CHALLENGE } from "./steps";
import type { RequestContext } from "~/context";

/**
 * The spec's CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION (decision 0122): USER_AUTH without a
 * preference answers SELECT_CHALLENGE with the first factors this account may use; the customer
 * picks one on /auth/select-first-factor — the password, a code by e-mail or SMS (plain form) or
 * a passkey (the browser's ceremony, with JavaScript).
 */

export type FirstFactorChoice = (typeof SERVER_FIRST_FACTORS)[number] | "passkey";

const CHOICE_BY_CHALLENGE: Record<string, FirstFactorChoice> = {
  PASSWORD: "password",
  PASSWORD_SRP: "password",
  EMAIL_OTP: "email",
  SMS_OTP: "sms",
  WEB_AUTHN: "passkey",
};

/**
 * The choices Cognito offered, in the page's order, each once; with passkeys on, a passkey is
 * always among them (decision 0138): the list does not tell whether this account has one, and
 * the browser's ceremony is refused alike for one that does not.
 */
export function offeredFirstFactors(
  pending: Pick<PendingChallenge, "parameters">,
  passkeysEnabled = false,
) {
  let names: unknown = [];
  try {
    names = JSON.parse(pending.parameters?.[AVAILABLE_CHALLENGES_PARAMETER] ?? "[]");
  } catch {
    names = [];
  }
  const offered = new Set(
    (Array.isArray(names) ? names : []).map((name) => CHOICE_BY_CHALLENGE[String(name)]),
  );
  if (passkeysEnabled) offered.add("passkey");
  return (["passkey", "password", "email", "sms"] as const).filter((choice) => offered.has(choice));
}

export function pendingFirstFactor(context: RequestContext) {
  return requirePending(context, (pending) => pending.challengeName === CHALLENGE.firstFactor);
}

/** "Otras formas de entrar" on the sign-in form: USER_AUTH without a preference. */
export async function startFirstFactorChoice(context: RequestContext, formData: FormData) {
  const submission = parseWithZod(formData, { schema: usernameAndRedirectSchema() });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["password"] });
  const { username } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  const refused = refuseWhenSignedIn(context, redirectTo);
  if (refused) return refused;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  try {
    const response = await context.identity.client.startUserAuth(username);
    return await continueSignIn({ context, submission, response, username, redirectTo });
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "InitiateAuth", username);
  }
}

/** The choice: the password, or a code sent by e-mail or SMS; a passkey goes through the browser. */
export async function submitFirstFactor(context: RequestContext, request: Request) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "passkey-start") return choosePasskeyFactor(context, formData);
  if (intent === "passkey-answer") {
    return answerPasskeySignIn(context, formData, request.headers.get("User-Agent"));
  }
  const pending = pendingFirstFactor(context);
  const offered = offeredFirstFactors(pending).filter((choice) => choice !== "passkey");
  const submission = parseWithZod(formData, { schema: firstFactorSchema(offered) });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["password"] });
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const { client } = context.identity;
  const username = pending.userIdForSrp ?? pending.username;
  try {
    const response =
      submission.value.factor === "password"
        ? await client.answerPasswordFactor({
            username,
            session: pending.session,
            password: submission.value.password ?? "",
            srpOffered: (pending.parameters?.[AVAILABLE_CHALLENGES_PARAMETER] ?? "").includes(
              "PASSWORD_SRP",
            ),
          })
        : await client.respondToChallenge({
            challengeName: CHALLENGE.firstFactor,
            session: pending.session,
            responses: {
              USERNAME: username,
              ANSWER: submission.value.factor === "email" ? "EMAIL_OTP" : "SMS_OTP",
            },
          });
    return await continueSignIn({
      context,
      submission,
      response,
      username: pending.username,
      redirectTo: pending.redirectTo ?? "",
      previous: pending,
    });
  } catch (error) {
    return challengeErrorReply(context, submission, error, "RespondToAuthChallenge", pending);
  }
}

/**
 * The sign-in page's one action: its password form, and (decision 0122) the passkey button's two
 * posts and "Otras formas de entrar". Only with passkeys on do the other intents exist.
 */
export async function signInAction(context: RequestContext, request: Request) {
  const formData = await request.formData();
  const intent = context.config.PASSKEYS_ENABLED ? formData.get("intent") : null;
  switch (intent) {
    case "passkey-start":
      return startPasskeySignIn(context, formData);
    case "passkey-answer":
      return answerPasskeySignIn(context, formData, request.headers.get("User-Agent"));
    case "other-ways":
      return startFirstFactorChoice(context, formData);
    default:
      return submitSignIn(context, formData);
  }
}
