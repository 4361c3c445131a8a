import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requirePending, challengeErrorReply } from "./challenge.server";
import { isCognitoError } from "./cognito-error";
import { mapCognitoError } from "./errors";
import {
  cognitoErrorReply,
  continueSignIn,
  errorReply,
  invalidReply,
  rateLimited,
  type Replyable,
} from "./flow.server";
import { safeRedirectPath } from "./redirect";
import { passkeyCredentialSchema, usernameAndRedirectSchema } from "./schemas";
import { refuseWhenSignedIn } from "./sign-in-request.server";
import { clearPending, setPending, type PendingSignIn } from "./session.server";
import { CHALLENGE, type AuthResponse } from "./steps";
import type { RequestContext } from "~/context";

/**
 * Signing in with a passkey (decision 0122): the one step that needs the browser. The sign-in
 * page's passkey button sends the e-mail (`passkey-start`): Cognito's USER_AUTH with the
 * WEB_AUTHN preference answers the request options, which the browser's
 * `navigator.credentials.get` signs; the answer (`passkey-answer`) goes back to Cognito as
 * CREDENTIAL, and the session starts as for any sign-in. Both are posts of the sign-in page (or
 * the first-factor choice), so a refusal is the page's own Spanish message, never another page.
 */

/** What the passkey button receives to start the browser's ceremony. */
export interface PasskeyRequest {
  passkeyRequestOptions: Record<string, unknown>;
}

/** Cognito's WEB_AUTHN challenge: its request options kept for the browser, its session here. */
function passkeyChallenge(
  context: RequestContext,
  submission: Replyable,
  response: AuthResponse,
  pending: Pick<PendingSignIn, "username" | "redirectTo" | "userIdForSrp">,
) {
  const raw = response.ChallengeParameters?.CREDENTIAL_REQUEST_OPTIONS;
  let options: Record<string, unknown> | null = null;
  try {
    options = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
  } catch {
    options = null;
  }
  if (response.ChallengeName !== CHALLENGE.webAuthn || !response.Session || !options) {
    context.logger.warn(
      { requestId: context.requestId, challenge: response.ChallengeName ?? "(ninguno)" },
      "passkey sign-in: no WEB_AUTHN challenge to answer",
    );
    clearPending(context);
    return errorReply(submission, "passkeyUnavailable", 400);
  }
  setPending(context, {
    ...pending,
    userIdForSrp: response.ChallengeParameters?.USERNAME ?? pending.userIdForSrp,
    challengeName: CHALLENGE.webAuthn,
    session: response.Session,
  });
  return data<PasskeyRequest>({ passkeyRequestOptions: options });
}

/** `passkey-start` on the sign-in page: the e-mail typed → the passkey's request options. */
export async function startPasskeySignIn(context: RequestContext, formData: FormData) {
  const submission = parseWithZod(formData, { schema: usernameAndRedirectSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const { username } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo);
  const refused = refuseWhenSignedIn(context, redirectTo);
  if (refused) return refused;
  const limited = await rateLimited(context, submission, username);
  if (limited) return limited;
  const { client } = context.identity;
  try {
    let response = await client.startUserAuth(username, "WEB_AUTHN");
    if (response.ChallengeName === CHALLENGE.firstFactor) {
      // The preference was not taken: a passkey among the choices is chosen here; none means
      // this account has no passkey for this site.
      if (!response.AvailableChallenges?.includes(CHALLENGE.webAuthn) || !response.Session) {
        return errorReply(submission, "passkeyNotRegistered", 400);
      }
      response = await client.respondToChallenge({
        challengeName: CHALLENGE.firstFactor,
        session: response.Session,
        responses: {
          USERNAME: response.ChallengeParameters?.USERNAME ?? username,
          ANSWER: CHALLENGE.webAuthn,
        },
      });
    }
    return passkeyChallenge(context, submission, response, { username, redirectTo });
  } catch (error) {
    return cognitoErrorReply(context, submission, error, "InitiateAuth", username);
  }
}

/**
 * `passkey-start` on the first-factor choice: the pending SELECT_CHALLENGE answered WEB_AUTHN.
 */
export async function choosePasskeyFactor(context: RequestContext, formData: FormData) {
  const pending = requirePending(context, (p) => p.challengeName === CHALLENGE.firstFactor);
  const submission = parseWithZod(formData, { schema: usernameAndRedirectSchema().partial() });
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  try {
    const response = await context.identity.client.respondToChallenge({
      challengeName: CHALLENGE.firstFactor,
      session: pending.session,
      responses: {
        USERNAME: pending.userIdForSrp ?? pending.username,
        ANSWER: CHALLENGE.webAuthn,
      },
    });
    return passkeyChallenge(context, submission, response, pending);
  } catch (error) {
    return challengeErrorReply(context, submission, error, "RespondToAuthChallenge", pending);
  }
}

/** `passkey-answer`: the browser's signed assertion → Cognito → the session. */
export async function answerPasskeySignIn(
  context: RequestContext,
  formData: FormData,
  userAgent: string | null,
) {
  const pending = requirePending(context, (p) => p.challengeName === CHALLENGE.webAuthn);
  const submission = parseWithZod(formData, { schema: passkeyCredentialSchema() });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const { text, value } = submission.value.credential;
  try {
    const response = await context.identity.client.respondToChallenge({
      challengeName: CHALLENGE.webAuthn,
      session: pending.session,
      responses: { USERNAME: pending.userIdForSrp ?? pending.username, CREDENTIAL: text },
    });
    return await continueSignIn({
      context,
      submission,
      response,
      username: pending.username,
      redirectTo: pending.redirectTo ?? "",
      previous: pending,
      passkeyCredentialId: value.id,
      userAgent,
    });
  } catch (error) {
    if (
      isCognitoError(error) &&
      mapCognitoError(error.code, error.message, "RespondToAuthChallenge").key ===
        "incorrectCredentials"
    ) {
      // A passkey Cognito does not take (deleted from the account, another account's): its own
      // message rather than "wrong password", and one failure for the account.
      clearPending(context);
      await cognitoErrorReply(
        context,
        submission,
        error,
        "RespondToAuthChallenge",
        pending.username,
      );
      return errorReply(submission, "passkeyRefused", 400);
    }
    return challengeErrorReply(context, submission, error, "RespondToAuthChallenge", pending);
  }
}
