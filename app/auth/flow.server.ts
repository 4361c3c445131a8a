import type { SubmissionResult } from "@conform-to/react";
import { data, redirect } from "react-router";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import type { RateLimitVerdict } from "~/lib/rate-limit";
import { isCognitoError } from "./cognito-error";
import { rememberAccountEmail } from "./account-emails.server";
import { attributesRecord } from "./cognito.server";
import { mapCognitoError, type AuthErrorKey, type CognitoOperation } from "./errors";
import { safeRedirectPath } from "./redirect";
import {
  clearPending,
  endSession,
  sessionFromAuthentication,
  setPending,
  SIGN_UP_PENDING_MAX_AGE_SECONDS,
  startSession,
  type PendingSignIn,
} from "./session.server";
import { customerFromTokens, mfaSettingsOf, type SessionTokens } from "./tokens";
import { recordPasskeyUse } from "./passkey-uses.server";
import { rememberedDeviceFor, rememberThisDevice } from "./remembered-devices.server";
import { noticeSecurityChange } from "./security-notices.server";
import {
  afterSignInView,
  authPath,
  CHALLENGE,
  signInNextStep,
  type AuthenticationResult,
  type AuthResponse,
} from "./steps";
import type { RequestContext } from "~/context";

/**
 * What the auth route actions share: rate limits, Spanish error replies, and carrying a
 * sign-in from one Cognito answer to the next view.
 */

const ALLOWED_ATTEMPT: RateLimitVerdict = { allowed: true, retryAfterSeconds: 0 };

/** Fields whose values never travel back to the browser in a reply. */
export const SECRET_FIELDS = ["password", "confirm_password", "confirmation_code"];

export function authT() {
  return getFixedT("auth");
}

export interface Replyable {
  reply(options?: {
    formErrors?: string[];
    hideFields?: string[];
    resetForm?: boolean;
  }): SubmissionResult<string[]>;
}

/** The form again with each field's Spanish message, as a 400: the input was not acceptable. */
export function invalidReply(submission: Replyable, options?: Parameters<Replyable["reply"]>[0]) {
  return data(submission.reply(options), { status: 400 });
}

/** A form answer with one Spanish message above the submit button. */
export function errorReply(
  submission: Replyable,
  key: AuthErrorKey,
  status: number,
  headers?: HeadersInit,
) {
  return data(
    submission.reply({ formErrors: [authT()(`errors.${key}`)], hideFields: SECRET_FIELDS }),
    { status, headers },
  );
}

/** What an auth action answers: a redirect, or the form again with its errors. */
export type AuthActionResult = Response | ReturnType<typeof errorReply>;

/**
 * A failed Cognito call → its Spanish message; never a 500. `account` is the username the
 * attempt was for: Cognito refusing what was typed counts as one failure against it.
 */
export async function cognitoErrorReply(
  context: RequestContext,
  submission: Replyable,
  error: unknown,
  operation: CognitoOperation,
  account?: string,
) {
  if (!isCognitoError(error)) {
    context.logger.error(
      { err: error, operation, requestId: context.requestId },
      "auth step failed",
    );
    return errorReply(submission, "unknown", 400);
  }
  const { key, status } = mapCognitoError(error.code, error.message, operation);
  if (key === "unknown") {
    // A refusal the store has no words for yet: the customer gets the generic Spanish message,
    // the operator the exception's name (never its message, which may quote what was typed).
    context.logger.warn({
      msg: "identity error without a mapping",
      exception: error.code,
      operation,
      requestId: context.requestId,
    });
  }
  // Cognito refused what was typed (a password, a code, an account): one failure for the
  // account. An unreachable identity service (503) is not the customer's failure.
  if (account && status !== 503) await countAccountFailure(context, account);
  return errorReply(submission, key, status);
}

/** One failed attempt against an account (what rateLimited's per-account gate reads). */
export async function countAccountFailure(context: RequestContext, account: string) {
  const { rateLimiter, rateLimits } = context.identity;
  try {
    await rateLimiter.consume([
      { key: `user:${account.toLowerCase()}`, rule: rateLimits.perUsername },
    ]);
  } catch (storeError) {
    // The customer still learns what Cognito refused; the gate (rateLimited) is what closes.
    limitStoreFailed(context, storeError);
  }
}

/** The attempt counters' store did not answer (decision 0075): logged with its code only. */
function limitStoreFailed(context: RequestContext, error: unknown) {
  context.logger.warn({
    msg: "rate limit store unavailable",
    requestId: context.requestId,
    code: (error as { code?: unknown } | null)?.code,
  });
}

/** The answer when the attempt counters cannot be read: a Spanish "try again", as a 503. */
function limitsUnavailable(context: RequestContext, submission: Replyable, error: unknown) {
  limitStoreFailed(context, error);
  return errorReply(submission, "serviceBusy", 503, { "Retry-After": "5" });
}

/**
 * Counts an attempt for this IP, and refuses an account that has already failed too often in
 * the window (its failures are counted when Cognito refuses: cognitoErrorReply). A reply to send
 * when over either limit.
 */
export async function rateLimited(
  context: RequestContext,
  submission: Replyable,
  username?: string,
) {
  const { rateLimiter, rateLimits } = context.identity;
  let perIp: RateLimitVerdict;
  let perAccount: RateLimitVerdict;
  try {
    [perIp, perAccount] = await Promise.all([
      rateLimiter.consume([{ key: `ip:${context.clientAddressKey}`, rule: rateLimits.perIp }]),
      username
        ? rateLimiter.check(`user:${username.toLowerCase()}`, rateLimits.perUsername)
        : ALLOWED_ATTEMPT,
    ]);
  } catch (error) {
    // Unlimited guessing is not offered while the counters are away: the form asks to retry.
    return limitsUnavailable(context, submission, error);
  }
  const verdict = !perIp.allowed ? perIp : perAccount;
  if (verdict.allowed) return null;
  context.logger.warn({ requestId: context.requestId }, "auth attempts over the limit");
  return errorReply(submission, "rateLimited", 429, {
    "Retry-After": String(verdict.retryAfterSeconds),
  });
}

/**
 * Counts a code Cognito is about to send to this address (a password reset, a code sent again):
 * past the limit, a Spanish 429 instead, so that nobody can flood a customer's inbox. Counted
 * for every address typed, known or not, so the answer tells nothing about which exist.
 */
export async function messageLimited(
  context: RequestContext,
  submission: Replyable,
  username: string,
) {
  const { rateLimiter, rateLimits } = context.identity;
  let verdict: RateLimitVerdict;
  try {
    verdict = await rateLimiter.consume([
      { key: `messages:${username.toLowerCase()}`, rule: rateLimits.messagesPerAccount },
    ]);
  } catch (error) {
    return limitsUnavailable(context, submission, error);
  }
  if (verdict.allowed) return null;
  context.logger.warn({ requestId: context.requestId }, "codes to one address over the limit");
  return errorReply(submission, "tooManyCodes", 429, {
    "Retry-After": String(verdict.retryAfterSeconds),
  });
}

/** An expired or missing sign-in state: back to sign-in with the spec's explanation. */
export function signInStateExpired(context: RequestContext, redirectTo?: string) {
  const target = redirectTo
    ? `${authPath("sign-in")}?redirectTo=${encodeURIComponent(safeRedirectPath(redirectTo))}`
    : authPath("sign-in");
  clearPending(context);
  setFlash(context, { kind: "error", key: "auth:errors.signInStateExpired" });
  return redirect(target, { status: 303 });
}

/**
 * SELECT_CHALLENGE's first factors (a top-level AvailableChallenges in Cognito's answer), kept
 * with the pending sign-in's parameters under this name for the selection view.
 */
export const AVAILABLE_CHALLENGES_PARAMETER = "AVAILABLE_CHALLENGES";

/** The challenge parameters worth keeping for the next view (never a secret). */
const KEPT_PARAMETERS = [
  "CODE_DELIVERY_DESTINATION",
  "CODE_DELIVERY_DELIVERY_MEDIUM",
  "MFAS_CAN_CHOOSE",
  "MFAS_CAN_SETUP",
  "requiredAttributes",
  AVAILABLE_CHALLENGES_PARAMETER,
];

function keptParameters(parameters: Record<string, string> | undefined) {
  if (!parameters) return undefined;
  return Object.fromEntries(
    Object.entries(parameters).filter(([name]) => KEPT_PARAMETERS.includes(name)),
  );
}

interface SignInContext {
  context: RequestContext;
  submission: Replyable;
  username: string;
  redirectTo: string;
  previous?: PendingSignIn | null;
  /** The message shown once signed in; "Iniciaste sesión" unless told otherwise. */
  signedInFlash?: string;
  /** "Recordar este dispositivo" was ticked with the second factor (decision 0123). */
  rememberDevice?: boolean;
  /** The passkey that signed the customer in, whose use the account lists (decision 0122). */
  passkeyCredentialId?: string;
  /** The browser's user agent: a remembered device's name. */
  userAgent?: string | null;
}

/**
 * Follows a Cognito answer to the next view: the session starts when the tokens arrive; a
 * challenge is remembered in the pending cookie and its view opens.
 */
export async function continueSignIn(
  input: SignInContext & { response: AuthResponse },
): Promise<AuthActionResult> {
  const { context, submission, username, redirectTo, previous } = input;
  let { response } = input;
  if (response.ChallengeName === CHALLENGE.deviceSrp) {
    // A remembered device: this browser proves it with the device's SRP secret (no second
    // factor). Cognito's ResourceNotFoundException for a forgotten one reaches the caller, which
    // drops the device and signs in again without it.
    const device = rememberedDeviceFor(context, username);
    if (!device || !response.Session) {
      clearPending(context);
      return errorReply(submission, "unhandledChallenge", 400);
    }
    // Cognito's own user name, as amazon-cognito-identity-js answers it (USER_ID_FOR_SRP).
    const parameters = response.ChallengeParameters;
    response = await context.identity.client.answerDeviceChallenge({
      username:
        parameters?.USER_ID_FOR_SRP ?? parameters?.USERNAME ?? previous?.userIdForSrp ?? username,
      session: response.Session,
      device,
    });
  }
  const next = signInNextStep({ type: "response", response });
  if (!next || next.step === null) {
    context.logger.warn(
      { challenge: next && "unhandledChallenge" in next ? next.unhandledChallenge : "?" },
      "unhandled sign-in challenge",
    );
    clearPending(context);
    return errorReply(submission, "unhandledChallenge", 400);
  }
  if (next.step === "DONE") {
    return finishSignIn({ ...input, result: response.AuthenticationResult! });
  }
  if (next.step === "CONFIRM_SIGN_IN_WITH_PASSWORD") {
    // The password is answered within the first-factor selection, never asked for on its own.
    return errorReply(submission, "unhandledChallenge", 400);
  }
  const pending: Omit<PendingSignIn, "expiresAt"> = {
    username,
    userIdForSrp: response.ChallengeParameters?.USER_ID_FOR_SRP ?? previous?.userIdForSrp,
    challengeName: response.ChallengeName,
    session: response.Session,
    parameters: keptParameters({
      ...response.ChallengeParameters,
      ...(response.AvailableChallenges
        ? { [AVAILABLE_CHALLENGES_PARAMETER]: JSON.stringify(response.AvailableChallenges) }
        : {}),
    }),
    redirectTo,
  };
  if (next.step === "CONTINUE_SIGN_IN_WITH_TOTP_SETUP") {
    try {
      const associated = await context.identity.client.associateSoftwareToken({
        session: response.Session ?? "",
      });
      pending.totpSecret = associated.SecretCode;
      pending.session = associated.Session ?? response.Session;
    } catch (error) {
      return cognitoErrorReply(context, submission, error, "AssociateSoftwareToken", username);
    }
  }
  setPending(context, pending);
  return redirect(authPath(next.view!), { status: 303 });
}

/** Tokens arrived: store them, end the sign-in state, and offer to verify a contact if none is. */
export async function finishSignIn(
  input: SignInContext & { result: AuthenticationResult },
): Promise<AuthActionResult> {
  const { context, submission, result, username, redirectTo } = input;
  const tokens = sessionFromAuthentication(result, {
    loginId: username,
    authFlowType: context.identity.client.authFlow,
  });
  if (!tokens) return errorReply(submission, "noSessionAfterSignIn", 400);
  const sub = customerFromTokens(tokens)?.sub;
  if (input.rememberDevice && sub) {
    const remembered = await rememberThisDevice(context, {
      result,
      username,
      sub,
      userAgent: input.userAgent ?? null,
    });
    const email = customerFromTokens(tokens)?.email;
    if (remembered && email) await noticeSecurityChange(context, email, "device_remembered");
  }
  if (input.passkeyCredentialId && sub) {
    await recordPasskeyUse(context.db, { sub, credentialId: input.passkeyCredentialId }, new Date())
      // The sign-in stands; the account shows the previous use until the next one.
      .catch((error: unknown) =>
        context.logger.warn({
          msg: "passkey use not recorded",
          requestId: context.requestId,
          code: (error as { code?: unknown } | null)?.code,
        }),
      );
  }
  // The password was right: this account's failures are forgiven. (A social sign-in forgives
  // nothing: it proves nothing about the password.)
  await context.identity.rateLimiter
    .reset(`user:${username.toLowerCase()}`)
    // Not forgiven this time: the count still ends with its window.
    .catch((error: unknown) => limitStoreFailed(context, error));
  return completeSignIn(context, { tokens, redirectTo, signedInFlash: input.signedInFlash });
}

/**
 * The session starts: shared by every way of signing in (password, social), so the
 * verify-contact step and the welcome message are the same whichever way the customer came.
 */
export async function completeSignIn(
  context: RequestContext,
  input: { tokens: SessionTokens; redirectTo: string; signedInFlash?: string },
): Promise<Response> {
  const { redirectTo } = input;
  let { tokens } = input;
  let attributes: Record<string, string> | null = null;
  try {
    const user = await context.identity.client.getUser(tokens.accessToken);
    attributes = attributesRecord(user);
    // Kept for the account page, which then asks Cognito nothing on an ordinary view.
    tokens = { ...tokens, mfa: mfaSettingsOf(user) };
  } catch {
    // Spec §4: failing to fetch the attributes still completes the sign-in.
  }
  startSession(context, tokens);
  await rememberAccountEmail(context);
  const target = safeRedirectPath(redirectTo);
  if (afterSignInView(attributes) === "verify-user") {
    return redirect(`${authPath("verify-user")}?redirectTo=${encodeURIComponent(target)}`, {
      status: 303,
    });
  }
  setFlash(context, { kind: "success", key: input.signedInFlash ?? "auth:flash.signedIn" });
  return redirect(target, { status: 303 });
}

/**
 * An account just confirmed (or confirmed before) that is not signed in automatically: to
 * sign-in with the email filled in, the message saying why, and the page asked for kept.
 */
export function toSignInAfterConfirmation(
  context: RequestContext,
  username: string,
  flashKey: string,
  redirectTo?: string,
) {
  setPending(context, { username });
  setFlash(context, { kind: "success", key: flashKey });
  return redirect(
    redirectTo
      ? `${authPath("sign-in")}?redirectTo=${encodeURIComponent(safeRedirectPath(redirectTo))}`
      : authPath("sign-in"),
    { status: 303 },
  );
}

/**
 * The spec's COMPLETE_AUTO_SIGN_IN: ConfirmSignUp's session becomes tokens (USER_AUTH), so the
 * customer who just confirmed the code is signed in without typing the password again. The
 * account is confirmed whatever happens here: when Cognito will not sign it in (the session is
 * over, or the app client does not allow USER_AUTH), the customer signs in with the password.
 */
export async function completeAutoSignIn(input: {
  context: RequestContext;
  submission: Replyable;
  username: string;
  session: string;
  redirectTo?: string;
}): Promise<AuthActionResult> {
  const { context, submission, username, session, redirectTo } = input;
  try {
    const response = await context.identity.client.signInAfterSignUp(username, session);
    return await continueSignIn({
      context,
      submission,
      response,
      username,
      redirectTo: safeRedirectPath(redirectTo),
      signedInFlash: "auth:flash.signUpSignedIn",
    });
  } catch (error) {
    const code = isCognitoError(error) ? error.code : "unknown";
    context.logger.info(
      { requestId: context.requestId, code },
      "automatic sign-in after sign-up refused; the customer signs in with the password",
    );
    const expired = code === "NotAuthorizedException";
    return toSignInAfterConfirmation(
      context,
      username,
      expired ? "auth:flash.notConfirmedOnTime" : "auth:flash.signUpConfirmed",
      redirectTo,
    );
  }
}

/** A sign-up waiting for its code: the email, where the code went, and the way back in. */
export function awaitSignUpCode(
  context: RequestContext,
  pending: Pick<PendingSignIn, "username" | "delivery" | "redirectTo" | "autoSignIn">,
) {
  setPending(context, pending, SIGN_UP_PENDING_MAX_AGE_SECONDS);
}

/**
 * Sign-out: Cognito revokes the refresh token (and the access tokens issued from it) where it
 * can, and the session ends here for every copy of its cookie whatever Cognito answers.
 */
export async function signOut(context: RequestContext) {
  const tokens = context.session?.tokens ?? context.jar.received(context.cookies.authSession);
  if (tokens) {
    try {
      await context.identity.client.revokeToken(tokens.refreshToken);
    } catch (error) {
      // Not supported, unreachable or already revoked: the session ends here anyway.
      context.logger.info(
        { requestId: context.requestId, code: (error as { code?: string }).code ?? "unknown" },
        "token revocation failed; the session is ended here",
      );
    }
  }
  await endSession(context);
}
