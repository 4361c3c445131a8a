import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { challengeErrorReply, requirePending, respondToChallenge } from "./challenge.server";
import { invalidReply, rateLimited } from "./flow.server";
import { selectOfferedMfaTypeSchema } from "./schemas";
import { setPending } from "./session.server";
import { authPath, CHALLENGE, CHALLENGE_BY_MFA_TYPE, parseMfaTypes, setupMfaTypes } from "./steps";
import type { RequestContext } from "~/context";

/**
 * Two of the spec's steps share this view: choosing which MFA answers this sign-in
 * (SELECT_MFA_TYPE) and choosing which MFA to set up (MFA_SETUP offering more than one).
 */
export function pendingChoice(context: RequestContext) {
  const pending = requirePending(
    context,
    ({ challengeName }) =>
      challengeName === CHALLENGE.selection || challengeName === CHALLENGE.setup,
  );
  return pending.challengeName === CHALLENGE.selection
    ? {
        pending,
        purpose: "select" as const,
        types: parseMfaTypes(pending.parameters?.MFAS_CAN_CHOOSE),
      }
    : { pending, purpose: "setup" as const, types: setupMfaTypes(pending.parameters) };
}

/**
 * The second factor chosen for this sign-in, or the one to set up.
 */
export async function submitSelectMfaType(context: RequestContext, request: Request) {
  const { pending, purpose, types } = pendingChoice(context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: selectOfferedMfaTypeSchema(types) });
  if (submission.status !== "success") return invalidReply(submission);
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const choice = submission.value.mfa_type;
  if (purpose === "select") {
    return respondToChallenge({
      context,
      submission,
      pending,
      responses: { ANSWER: CHALLENGE_BY_MFA_TYPE[choice] },
    });
  }
  if (choice !== "TOTP") return redirect(authPath("setup-email"), { status: 303 });
  try {
    const associated = await context.identity.client.associateSoftwareToken({
      session: pending.session,
    });
    const { expiresAt: _expires, ...rest } = pending;
    setPending(context, {
      ...rest,
      totpSecret: associated.SecretCode,
      session: associated.Session ?? pending.session,
    });
    return redirect(authPath("setup-totp"), { status: 303 });
  } catch (error) {
    return challengeErrorReply(context, submission, error, "AssociateSoftwareToken", pending);
  }
}
