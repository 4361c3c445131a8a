import type { LineCodePurpose } from "~/db/schema";
import { getFixedT } from "~/i18n/i18n.server";
import { formKeyNonce } from "~/lib/form-key.server";
import { formMessage } from "~/lib/form-messages";
import type { RateLimitRule } from "~/lib/rate-limit";
import { isSmsRefused, isSmsUnavailable } from "~/sms/sender";
import { isBssUnavailable } from "./bss";
import {
  checkLineCode,
  createLineCodeHasher,
  issueLineCode,
  type LineCodeCheck,
  lineCodeExists,
  lineCodeId,
  withdrawLineCode,
} from "./line-codes.server";
import type { RequestContext } from "~/context";

/**
 * Proving a number with a code sent to it by SMS, as every form does it (adding a line to an
 * account, /saldo, registering its holder at /registro-de-linea): the limits, the BSS's word on
 * the number, the code and its SMS.
 */

const HOUR_MS = 60 * 60 * 1000;

/**
 * Codes sent per hour from one address, and to one number whoever asks: every code is an SMS on
 * someone's phone, so a number's limit protects its owner from being flooded. It is also what
 * bounds the guesses at a number's codes (5 tries each).
 */
export function lineCodeLimits(config: RequestContext["config"]) {
  return {
    perClient: { limit: config.LINE_CODE_RATE_LIMIT_PER_IP, windowMs: HOUR_MS },
    perNumber: { limit: config.LINE_CODE_RATE_LIMIT_PER_LINE, windowMs: HOUR_MS },
  } satisfies Record<string, RateLimitRule>;
}

/** The SMS of each purpose (a key of the "line" namespace) and its template's name for the logs. */
const SMS_OF: Record<LineCodePurpose, { text: string; template: string }> = {
  "add-line": { text: "sms.addLine", template: "line-code-add" },
  balance: { text: "sms.balance", template: "line-code-balance" },
  registration: { text: "sms.registration", template: "line-code-registration" },
};

export type SendCodeOutcome =
  /** Sent now, or by the same form sent before. */
  | { kind: "sent" }
  | { kind: "limited"; retryAfterSeconds: number }
  /** The BSS does not know the number, or the line is dada de baja (only when `reveal`). */
  | { kind: "not-a-line"; problem: "unknown" | "terminated" }
  /** The SMSC does not take this number (only when `reveal`). */
  | { kind: "unreachable" }
  /** The BSS or the SMSC out of reach: nothing was sent; the form may be sent again. */
  | { kind: "unavailable" };

export interface SendCodeInput {
  purpose: LineCodePurpose;
  number: string;
  /** Whose code it is: an account's `sub`, or one browser's random id. */
  holder: string;
  /** The form's key: the same form sent again finds its code and sends no second SMS. */
  formKey: string;
  /**
   * Whether the answer may say the number is no line. Without it (no account: /saldo) a number
   * the BSS does not know gets a code no SMS carries, so that every answer that follows, to
   * every code typed, is the one a real line's would be.
   */
  reveal: boolean;
}

/** Sends a code to the number by SMS, once per form sent, within the limits. */
export async function sendLineCode(
  context: RequestContext,
  input: SendCodeInput,
): Promise<SendCodeOutcome> {
  const { number, purpose } = input;
  const id = lineCodeId(purpose, formKeyNonce(input.formKey), number);
  if (await lineCodeExists(context.db, id)) return { kind: "sent" };
  const limits = lineCodeLimits(context.config);
  const verdict = await context.rateLimiter.consume([
    { key: `line-code-ip:${context.clientAddressKey}`, rule: limits.perClient },
    { key: `line-code-number:${number}`, rule: limits.perNumber },
  ]);
  if (!verdict.allowed) {
    context.logger.warn({
      msg: "line codes over the limit",
      purpose,
      requestId: context.requestId,
    });
    return { kind: "limited", retryAfterSeconds: verdict.retryAfterSeconds };
  }
  let problem: "unknown" | "terminated" | null;
  try {
    const line = await context.bss.findLine(number);
    problem = !line ? "unknown" : line.status === "terminated" ? "terminated" : null;
  } catch (error) {
    if (!isBssUnavailable(error)) throw error;
    context.logger.warn({ msg: "line code: BSS unavailable", requestId: context.requestId });
    return { kind: "unavailable" };
  }
  if (problem && input.reveal) return { kind: "not-a-line", problem };
  const hasher = createLineCodeHasher(context.config.sessionSecrets);
  const now = new Date();
  const issued = await issueLineCode(context.db, {
    id,
    purpose,
    number,
    holder: input.holder,
    now,
    hasher,
  });
  // A twin of this submission made it meanwhile; a number that is no line gets no SMS.
  if (!issued.issued || problem) return { kind: "sent" };
  const sms = SMS_OF[purpose];
  try {
    await context.sms.send({
      to: number,
      text: getFixedT("line")(sms.text, { code: issued.code }),
      template: sms.template,
    });
  } catch (error) {
    if (isSmsRefused(error) && error.reason === "invalid-destination" && !input.reveal) {
      // Kept, as for a number that is no line: what follows must not tell the two apart.
      return { kind: "sent" };
    }
    await withdrawLineCode(context.db, id);
    if (isSmsUnavailable(error)) {
      context.logger.warn({ msg: "line code: SMS unavailable", requestId: context.requestId });
      return { kind: "unavailable" };
    }
    if (isSmsRefused(error) && error.reason === "invalid-destination")
      return { kind: "unreachable" };
    throw error;
  }
  return { kind: "sent" };
}

/** Checks a code typed for the holder's newest code of that number, counting the try. */
export function checkLineCodeTyped(
  context: RequestContext,
  input: { purpose: LineCodePurpose; number: string; holder: string; code: string },
): Promise<LineCodeCheck> {
  return checkLineCode(context.db, {
    ...input,
    now: new Date(),
    hasher: createLineCodeHasher(context.config.sessionSecrets),
  });
}

/** The field message of a code that did not prove the number (keys of the "line" namespace). */
export function codeCheckMessage(check: Exclude<LineCodeCheck, { kind: "proved" }>): string {
  switch (check.kind) {
    case "wrong":
      return check.attemptsLeft > 0
        ? formMessage("line:errors.codeWrong", { left: check.attemptsLeft })
        : "line:errors.codeExhausted";
    case "exhausted":
      return "line:errors.codeExhausted";
    case "expired":
    case "none":
      return "line:errors.codeExpired";
  }
}
