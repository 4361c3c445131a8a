import { isCognitoError } from "./cognito-error";
import { mapCognitoError, type CognitoOperation } from "./errors";
import {
  cognitoErrorReply,
  continueSignIn,
  signInStateExpired,
  type AuthActionResult,
  type Replyable,
} from "./flow.server";
import { readPending, type PendingSignIn } from "./session.server";
import type { RequestContext } from "~/context";

/** A sign-in waiting at one of Cognito's challenges, with the session to answer it. */
export type PendingChallenge = PendingSignIn & { challengeName: string; session: string };

/**
 * The loader and action guard of every challenge view: the sign-in waiting here, or (thrown)
 * the way back to sign-in with the spec's "invalid sign-in state" explanation when there is
 * none, it has expired, or it waits at another view's challenge.
 */
export function requirePending(
  context: RequestContext,
  accepts: (pending: PendingChallenge) => boolean,
): PendingChallenge {
  const pending = readPending(context);
  if (!pending?.challengeName || !pending.session) throw signInStateExpired(context);
  const challenge = pending as PendingChallenge;
  if (!accepts(challenge)) throw signInStateExpired(context);
  return challenge;
}

/**
 * A refused challenge step: an expired Cognito session goes back to sign-in with the spec's
 * explanation; anything else is the form again with its Spanish message, counted against the
 * account.
 */
export async function challengeErrorReply(
  context: RequestContext,
  submission: Replyable,
  error: unknown,
  operation: CognitoOperation,
  pending: Pick<PendingSignIn, "username" | "redirectTo">,
): Promise<AuthActionResult> {
  if (
    isCognitoError(error) &&
    mapCognitoError(error.code, error.message, operation).key === "signInStateExpired"
  ) {
    return signInStateExpired(context, pending.redirectTo);
  }
  return cognitoErrorReply(context, submission, error, operation, pending.username);
}

/**
 * Answers the pending challenge as Cognito's user (USERNAME is added) and follows the answer:
 * tokens start the session, another challenge opens its view.
 */
export async function respondToChallenge(input: {
  context: RequestContext;
  submission: Replyable;
  pending: PendingChallenge;
  responses: Record<string, string>;
  /** When the answer is to another challenge than the pending one (MFA selection). */
  challengeName?: string;
  /** When a step before this one (VerifySoftwareToken) gave a newer session. */
  session?: string;
  /** What the sign-in carries to its end: a device to remember, the passkey used. */
  carry?: Pick<
    Parameters<typeof continueSignIn>[0],
    "rememberDevice" | "passkeyCredentialId" | "userAgent"
  >;
}): Promise<AuthActionResult> {
  const { context, submission, pending } = input;
  try {
    const response = await context.identity.client.respondToChallenge({
      challengeName: input.challengeName ?? pending.challengeName,
      session: input.session ?? pending.session,
      responses: { USERNAME: pending.userIdForSrp ?? pending.username, ...input.responses },
    });
    return await continueSignIn({
      context,
      submission,
      response,
      username: pending.username,
      redirectTo: pending.redirectTo ?? "",
      previous: pending,
      ...input.carry,
    });
  } catch (error) {
    return challengeErrorReply(context, submission, error, "RespondToAuthChallenge", pending);
  }
}
