import { randomBytes } from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { requirePending, challengeErrorReply } from "./challenge.server";
import { isCognitoError } from "./cognito-error";
import { mapCognitoError } from "./errors";
import {
  cognitoErrorReply,
  continueSignIn,
  countAccountFailure,
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

/**
 * What the passkey button receives to start the browser's ceremony: the same fields for every
 * address typed (decision 0138). No credential ids: the browser offers the site's passkeys it
 * holds (discoverable credentials, which every passkey made here is), so the answer does not
 * list an account's passkeys nor tell whether it has any.
 */
export interface PasskeyRequest {
  passkeyRequestOptions: {
    challenge: string;
    rpId: string;
    timeout: number;
    userVerification: "required";
    allowCredentials: [];
  };
}

/** How long the browser's passkey prompt stays open. */
const PASSKEY_PROMPT_MS = 120_000;
/**
 * Marks a pending passkey sign-in that no account can finish (an unknown address, an account
 * without a passkey): never the start of a Cognito session, whose characters are base64's.
 */
const DECOY_SESSION = "decoy:";

function requestOptions(challenge: string, rpId: string): PasskeyRequest {
  return {
    passkeyRequestOptions: {
      challenge,
      rpId,
      timeout: PASSKEY_PROMPT_MS,
      userVerification: "required",
      allowCredentials: [],
    },
  };
}

/** This site's host name: the relying party passkeys are made for (README, PASSKEYS_ENABLED). */
function siteRelyingParty(context: RequestContext) {
  return new URL(context.config.publicOrigin).hostname;
}

/**
 * The answer for an address that cannot sign in with a passkey, alike in every field to a real
 * challenge's: a random challenge (the size @simplewebauthn and Cognito use), and a pending
 * sign-in whose answer is refused as a passkey of another account is.
 */
function decoyChallenge(
  context: RequestContext,
  pending: Pick<PendingSignIn, "username" | "redirectTo">,
) {
  setPending(context, {
    ...pending,
    userIdForSrp: pending.username,
    challengeName: CHALLENGE.webAuthn,
    session: `${DECOY_SESSION}${randomBytes(96).toString("base64url")}`,
  });
  return data(requestOptions(randomBytes(32).toString("base64url"), siteRelyingParty(context)));
}

/** Cognito's WEB_AUTHN challenge: its challenge kept for the browser, its session here. */
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
  if (
    response.ChallengeName !== CHALLENGE.webAuthn ||
    !response.Session ||
    typeof options?.challenge !== "string"
  ) {
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
  const rpId = typeof options.rpId === "string" ? options.rpId : siteRelyingParty(context);
  return data(requestOptions(options.challenge, rpId));
}

/**
 * Cognito refused the address itself (unknown, disabled, unconfirmed…): the passkey button
 * answers as for any account, so it tells nobody which addresses have one.
 */
function refusesTheAccount(error: unknown) {
  if (!isCognitoError(error)) return false;
  const { key } = mapCognitoError(error.code, error.message, "InitiateAuth");
  return (
    key === "incorrectCredentials" ||
    key === "userNotFound" ||
    key === "userDisabled" ||
    key === "userNotConfirmed" ||
    key === "passwordResetRequired"
  );
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
    if (response.ChallengeName !== CHALLENGE.webAuthn) {
      // The preference was not taken: a passkey among the choices is chosen here. None (an
      // account without a passkey, or a pool that answers an unknown address with another
      // challenge) is answered as any account is, so the button tells nothing.
      if (
        response.ChallengeName !== CHALLENGE.firstFactor ||
        !response.AvailableChallenges?.includes(CHALLENGE.webAuthn) ||
        !response.Session
      ) {
        return decoyChallenge(context, { username, redirectTo });
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
    if (refusesTheAccount(error)) return decoyChallenge(context, { username, redirectTo });
    return cognitoErrorReply(context, submission, error, "InitiateAuth", username);
  }
}

/**
 * `passkey-start` on the first-factor choice: the pending SELECT_CHALLENGE answered WEB_AUTHN.
 * The choice offers a passkey to every account (decision 0138): one without gets the decoy, as
 * on the sign-in page.
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
    if (response.ChallengeName !== CHALLENGE.webAuthn) return decoyChallenge(context, pending);
    return passkeyChallenge(context, submission, response, pending);
  } catch (error) {
    if (isCognitoError(error)) {
      const { key, status } = mapCognitoError(error.code, error.message, "RespondToAuthChallenge");
      // Cognito will not give this account a passkey challenge: answered as any account is.
      // An expired choice, a limit or an unreachable service keep their own answers.
      if (key !== "signInStateExpired" && status === 400) return decoyChallenge(context, pending);
    }
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
  if (pending.session.startsWith(DECOY_SESSION)) {
    return refuseDecoyAnswer(context, submission, pending, text);
  }
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

/**
 * The answer to a decoy challenge: refused as a passkey of another account is, after the same
 * round trip to Cognito (a session it does not know), and counted as one failure for the address.
 */
async function refuseDecoyAnswer(
  context: RequestContext,
  submission: Replyable,
  pending: PendingSignIn & { session: string },
  credential: string,
) {
  clearPending(context);
  try {
    await context.identity.client.respondToChallenge({
      challengeName: CHALLENGE.webAuthn,
      session: pending.session.slice(DECOY_SESSION.length),
      responses: { USERNAME: pending.username, CREDENTIAL: credential },
    });
  } catch {
    // Refused, as it must be: the answer is the same whatever Cognito said.
  }
  await countAccountFailure(context, pending.username);
  return errorReply(submission, "passkeyRefused", 400);
}
