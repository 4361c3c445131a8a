import type { SubmissionResult } from "@conform-to/react";

/** What `issueFormKey` makes: 16 characters of nonce, a dot, 22 of signature (base64url). */
export const FORM_KEY_PATTERN = /^[\w-]{16}\.[\w-]{22}$/;

/** The field every form carries its key in. */
export const FORM_KEY_FIELD = "idempotency_key";

/**
 * A refusal that hands the form a new key: loaders do not run again after a 4xx, so the answer
 * itself carries the key this browser may send next, in place of the one it sent.
 */
export function replyWithFormKey<Result extends SubmissionResult<string[]>>(
  reply: Result,
  key: string,
): Result {
  return { ...reply, initialValue: { ...reply.initialValue, [FORM_KEY_FIELD]: key } };
}
