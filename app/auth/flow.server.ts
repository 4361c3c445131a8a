import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { getFixedT } from "~/i18n/i18n.server";
import { flashHeaders } from "~/lib/flash.server";
import type { Flash } from "~/lib/flash";
import { attributesRecord, isCognitoError } from "./cognito.server";
import { mapCognitoError, type AuthErrorKey, type CognitoOperation } from "./errors";
import { safeRedirectPath } from "./redirect";
import {
  clearAuthCookies,
  pendingCookieHeaders,
  sessionFromAuthentication,
  type PendingSignIn,
} from "./session.server";
import {
  afterSignInView,
  authPath,
  signInNextStep,
  type AuthenticationResult,
  type AuthResponse,
} from "./steps";

/**
 * What the auth route actions share: rate limits, Spanish error replies, and carrying a
 * sign-in from one Cognito answer to the next view.
 */

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

/** A failed Cognito call → its Spanish message; never a 500. */
export function cognitoErrorReply(
  context: AppLoadContext,
  submission: Replyable,
  error: unknown,
  operation: CognitoOperation,
) {
  if (!isCognitoError(error)) {
    context.logger.error(
      { err: error, operation, requestId: context.requestId },
      "auth step failed",
    );
    return errorReply(submission, "unknown", 400);
  }
  const { key, status } = mapCognitoError(error.code, error.message, operation);
  // Cognito refused what was typed (a password, a code, an account): one failure for the
  // account. An unreachable identity service (503) is not the customer's failure.
  const username = attemptedUsernames.get(context);
  if (username && status !== 503) {
    const { rateLimiter, rateLimits } = context.identity;
    rateLimiter.consume([{ key: `user:${username.toLowerCase()}`, rule: rateLimits.perUsername }]);
  }
  return errorReply(submission, key, status);
}

/** The account each request's auth attempt is for, so a refusal can be counted against it. */
const attemptedUsernames = new WeakMap<AppLoadContext, string>();

/**
 * Counts an attempt for this IP, and refuses an account that has already failed too often in
 * the window (its failures are counted when Cognito refuses: cognitoErrorReply). A reply to send
 * when over either limit.
 */
export function rateLimited(context: AppLoadContext, submission: Replyable, username?: string) {
  const { rateLimiter, rateLimits } = context.identity;
  const perIp = rateLimiter.consume([{ key: `ip:${context.clientIp}`, rule: rateLimits.perIp }]);
  const perAccount = username
    ? rateLimiter.check(`user:${username.toLowerCase()}`, rateLimits.perUsername)
    : perIp;
  if (username) attemptedUsernames.set(context, username);
  const verdict = !perIp.allowed ? perIp : perAccount;
  if (verdict.allowed) return null;
  context.logger.warn({ requestId: context.requestId }, "auth attempts over the limit");
  return errorReply(submission, "rateLimited", 429, {
    "Retry-After": String(verdict.retryAfterSeconds),
  });
}

/** Joins Set-Cookie lists and a flash into one Headers. */
export function cookieHeaders(
  context: AppLoadContext,
  request: Request,
  setCookies: string[],
  flash?: Flash,
): Headers {
  const headers = flash ? flashHeaders(context, request, flash) : new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/** An expired or missing sign-in state: back to sign-in with the spec's explanation. */
export function signInStateExpired(context: AppLoadContext, request: Request, redirectTo?: string) {
  const target = redirectTo
    ? `${authPath("sign-in")}?redirectTo=${encodeURIComponent(safeRedirectPath(redirectTo))}`
    : authPath("sign-in");
  return redirect(target, {
    status: 303,
    headers: cookieHeaders(
      context,
      request,
      context.cookies.authPending.clear(request.headers.get("Cookie")),
      {
        kind: "error",
        key: "auth:errors.signInStateExpired",
      },
    ),
  });
}

/** The challenge parameters worth keeping for the next view (never a secret). */
const KEPT_PARAMETERS = [
  "CODE_DELIVERY_DESTINATION",
  "CODE_DELIVERY_DELIVERY_MEDIUM",
  "MFAS_CAN_CHOOSE",
  "MFAS_CAN_SETUP",
  "requiredAttributes",
];

function keptParameters(parameters: Record<string, string> | undefined) {
  if (!parameters) return undefined;
  return Object.fromEntries(
    Object.entries(parameters).filter(([name]) => KEPT_PARAMETERS.includes(name)),
  );
}

interface SignInContext {
  context: AppLoadContext;
  request: Request;
  submission: Replyable;
  username: string;
  redirectTo: string;
  previous?: PendingSignIn | null;
}

/**
 * Follows a Cognito answer to the next view: the session starts when the tokens arrive; a
 * challenge is remembered in the pending cookie and its view opens.
 */
export async function continueSignIn(
  input: SignInContext & { response: AuthResponse },
): Promise<AuthActionResult> {
  const { context, request, submission, response, username, redirectTo, previous } = input;
  const next = signInNextStep({ type: "response", response });
  if (!next || next.step === null) {
    context.logger.warn(
      { challenge: next && "unhandledChallenge" in next ? next.unhandledChallenge : "?" },
      "unhandled sign-in challenge",
    );
    return errorReply(
      submission,
      "unhandledChallenge",
      400,
      cookieHeaders(
        context,
        request,
        context.cookies.authPending.clear(request.headers.get("Cookie")),
      ),
    );
  }
  if (next.step === "DONE") {
    return finishSignIn({ ...input, result: response.AuthenticationResult! });
  }
  if (
    next.step === "CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION" ||
    next.step === "CONFIRM_SIGN_IN_WITH_PASSWORD"
  ) {
    // Only USER_AUTH asks for these, and this product never starts that flow.
    return errorReply(submission, "unhandledChallenge", 400);
  }
  const pending: Omit<PendingSignIn, "expiresAt"> = {
    username,
    userIdForSrp: response.ChallengeParameters?.USER_ID_FOR_SRP ?? previous?.userIdForSrp,
    challengeName: response.ChallengeName,
    session: response.Session,
    parameters: keptParameters(response.ChallengeParameters),
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
      return cognitoErrorReply(context, submission, error, "AssociateSoftwareToken");
    }
  }
  return redirect(authPath(next.view!), {
    status: 303,
    headers: cookieHeaders(context, request, pendingCookieHeaders(context, request, pending)),
  });
}

/** Tokens arrived: store them, end the sign-in state, and offer to verify a contact if none is. */
export async function finishSignIn(
  input: SignInContext & { result: AuthenticationResult },
): Promise<AuthActionResult> {
  const { context, request, submission, result, username, redirectTo } = input;
  const tokens = sessionFromAuthentication(result, {
    loginId: username,
    authFlowType: context.identity.client.authFlow,
  });
  if (!tokens) return errorReply(submission, "noSessionAfterSignIn", 400);
  let attributes: Record<string, string> | null = null;
  try {
    attributes = attributesRecord(await context.identity.client.getUser(tokens.accessToken));
  } catch {
    // Spec §4: failing to fetch the attributes still completes the sign-in.
  }
  context.identity.rateLimiter.reset(`user:${username.toLowerCase()}`);
  const cookieHeader = request.headers.get("Cookie");
  const setCookies = [
    ...context.cookies.authSession.write(tokens, cookieHeader),
    ...context.cookies.authPending.clear(cookieHeader),
  ];
  const target = safeRedirectPath(redirectTo);
  if (afterSignInView(attributes) === "verify-user") {
    return redirect(`${authPath("verify-user")}?redirectTo=${encodeURIComponent(target)}`, {
      status: 303,
      headers: cookieHeaders(context, request, setCookies),
    });
  }
  return redirect(target, {
    status: 303,
    headers: cookieHeaders(context, request, setCookies, {
      kind: "success",
      key: "auth:flash.signedIn",
    }),
  });
}

/** Sign-out everywhere it is needed: cookies cleared, refresh token revoked where supported. */
export function signOutHeaders(context: AppLoadContext, request: Request, flash?: Flash) {
  return cookieHeaders(context, request, clearAuthCookies(context, request), flash);
}
