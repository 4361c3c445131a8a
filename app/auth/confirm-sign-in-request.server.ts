import { parseWithZod } from "@conform-to/zod/v4";
import { requirePending, respondToChallenge } from "./challenge.server";
import { invalidReply, rateLimited } from "./flow.server";
import { confirmSignInSchema } from "./schemas";
import { challengeResponseKey, CODE_CHALLENGES, CHALLENGE } from "./steps";
import type { RequestContext } from "~/context";

/** "Recordar este dispositivo" goes with a second factor's code when devices are remembered. */
export function offersRememberDevice(context: RequestContext, challengeName: string): boolean {
  return (
    context.config.REMEMBERED_DEVICES_ENABLED &&
    [CHALLENGE.sms, CHALLENGE.totp, CHALLENGE.email].includes(challengeName as never)
  );
}

/** The sign-in waiting for a code or an answer; else back to signing in. */
export function pendingChallenge(context: RequestContext) {
  return requirePending(context, (pending) => CODE_CHALLENGES.includes(pending.challengeName));
}

/**
 * The answer to the sign-in's challenge (a code sent or generated, or a custom challenge's answer).
 */
export async function submitConfirmSignIn(context: RequestContext, request: Request) {
  const pending = pendingChallenge(context);
  const formData = await request.formData();
  const challenge = pending.challengeName === CHALLENGE.custom ? "custom" : "code";
  const submission = parseWithZod(formData, {
    schema: confirmSignInSchema(challenge),
  });
  if (submission.status !== "success")
    return invalidReply(submission, { hideFields: ["confirmation_code"] });
  const limited = await rateLimited(context, submission, pending.username);
  if (limited) return limited;
  const key = challengeResponseKey(pending.challengeName)!;
  return respondToChallenge({
    context,
    submission,
    pending,
    responses: { [key]: submission.value.confirmation_code },
    carry: {
      // Offered only with a second factor (decision 0123); a custom challenge is not one.
      rememberDevice:
        offersRememberDevice(context, pending.challengeName) &&
        formData.get("remember_device") === "on",
      userAgent: request.headers.get("User-Agent"),
    },
  });
}
