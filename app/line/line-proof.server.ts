import type { LineCodePurpose } from "~/db/schema";
import { getFixedT } from "~/i18n/i18n.server";
import { formKeyNonce } from "~/lib/form-key.server";
import { formMessage } from "~/lib/form-messages";
import type { RateLimitRule } from "~/lib/rate-limit";
import { isSmsRefused, isSmsUnavailable } from "~/sms/sender";
import { isBssUnavailable } from "./bss";
import { numberBackoffMs } from "./line-code-limits";
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
const DAY_MS = 24 * HOUR_MS;

/**
 * The limits on codes (decision 0135), each doing one job:
 * - per requester: the codes one address (`perClient`) and one account or browser (`perHolder`)
 *   may ask for in an hour; whoever hits them waits, no one else;
 * - per number: a back-off between codes to it, whoever asks (line-code-limits.ts), so a flood
 *   reaches the owner's phone a few times an hour and keeps the owner waiting minutes, not an hour;
 * - the guesses at a number: wrong codes typed for it in a day, across requesters and codes (each
 *   code has 5 tries), after which its codes stop until the day ends;
 * - the store's SMS budget: codes sent by everyone in an hour (on /metrics).
 */
export function lineCodeLimits(config: RequestContext["config"]) {
  return {
    perClient: { limit: config.LINE_CODE_RATE_LIMIT_PER_IP, windowMs: HOUR_MS },
    perHolder: { limit: config.LINE_CODE_RATE_LIMIT_PER_HOLDER, windowMs: HOUR_MS },
    /** A counter only: the codes sent to a number in its hour, which the back-off grows with. */
    sentToNumber: { limit: Number.MAX_SAFE_INTEGER, windowMs: HOUR_MS },
    failedChecks: { limit: config.LINE_CODE_FAILED_CHECKS_PER_NUMBER, windowMs: DAY_MS },
    budget: { limit: config.LINE_CODE_SMS_PER_HOUR, windowMs: HOUR_MS },
  } satisfies Record<string, RateLimitRule>;
}

/** The counter of the store's SMS budget (read by /metrics). */
export const LINE_CODE_BUDGET_KEY = "line-code-budget:all";

const numberGapKey = (number: string) => `line-code-gap:${number}`;
const sentToNumberKey = (number: string) => `line-code-sent:${number}`;
const failedChecksKey = (number: string) => `line-code-guesses:${number}`;

/** How much of the store's hourly SMS budget is used: what /metrics shows. */
export async function lineCodeBudgetUse(
  context: Pick<RequestContext, "config" | "rateLimiter">,
): Promise<{ sent: number; budget: number }> {
  const { budget } = lineCodeLimits(context.config);
  const sent = await context.rateLimiter.used(LINE_CODE_BUDGET_KEY, budget);
  return { sent: Math.min(sent, budget.limit), budget: budget.limit };
}

/**
 * Whether a code may go to the number now, counting it if so: the requester's own limits first
 * (a requester over them spends nothing of the number's), then the number's back-off, whose
 * window is the gap that follows this code (a refused request does not lengthen it), then the
 * store's budget.
 */
async function admitCode(
  context: RequestContext,
  input: { number: string; holder: string },
): Promise<
  | { kind: "admitted" }
  | { kind: "limited"; retryAfterSeconds: number; why: string }
  | { kind: "spent" }
> {
  const { rateLimiter } = context;
  const limits = lineCodeLimits(context.config);
  const guesses = await rateLimiter.check(failedChecksKey(input.number), limits.failedChecks);
  if (!guesses.allowed) return { ...guesses, kind: "limited", why: "number guessed at" };
  if (!(await rateLimiter.check(LINE_CODE_BUDGET_KEY, limits.budget)).allowed) {
    return { kind: "spent" };
  }
  const requester = await rateLimiter.consume([
    { key: `line-code-ip:${context.clientAddressKey}`, rule: limits.perClient },
    { key: `line-code-holder:${input.holder}`, rule: limits.perHolder },
  ]);
  if (!requester.allowed) return { ...requester, kind: "limited", why: "requester" };
  const backoffMs = numberBackoffMs(
    (await rateLimiter.used(sentToNumberKey(input.number), limits.sentToNumber)) + 1,
    context.config.LINE_CODE_NUMBER_BACKOFF_SECONDS * 1000,
  );
  if (backoffMs > 0) {
    const gap = await rateLimiter.consume([
      { key: numberGapKey(input.number), rule: { limit: 1, windowMs: backoffMs } },
    ]);
    if (!gap.allowed) return { ...gap, kind: "limited", why: "number back-off" };
  }
  await rateLimiter.consume([
    { key: sentToNumberKey(input.number), rule: limits.sentToNumber },
    { key: LINE_CODE_BUDGET_KEY, rule: limits.budget },
  ]);
  return { kind: "admitted" };
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
  const admitted = await admitCode(context, { number, holder: input.holder });
  if (admitted.kind === "spent") {
    context.logger.warn({
      msg: "line codes: the hourly SMS budget is spent",
      purpose,
      requestId: context.requestId,
    });
    return { kind: "unavailable" };
  }
  if (admitted.kind === "limited") {
    context.logger.warn({
      msg: "line codes over the limit",
      limit: admitted.why,
      purpose,
      requestId: context.requestId,
    });
    return { kind: "limited", retryAfterSeconds: admitted.retryAfterSeconds };
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

/** A code's check, or `limited`: too many wrong codes were typed for the number today. */
export type CodeCheck = LineCodeCheck | { kind: "limited" };

/**
 * Checks a code typed for the holder's newest code of that number, counting the try; a wrong one
 * counts against the number's guesses too, whoever typed it. Once they are used up, no code of
 * the number is checked (nor sent) until the day's window ends.
 */
export async function checkLineCodeTyped(
  context: RequestContext,
  input: { purpose: LineCodePurpose; number: string; holder: string; code: string },
): Promise<CodeCheck> {
  const { failedChecks } = lineCodeLimits(context.config);
  const guessesKey = failedChecksKey(input.number);
  if (!(await context.rateLimiter.check(guessesKey, failedChecks)).allowed) {
    context.logger.warn({
      msg: "line codes over the limit",
      limit: "number guessed at",
      purpose: input.purpose,
      requestId: context.requestId,
    });
    return { kind: "limited" };
  }
  const check = await checkLineCode(context.db, {
    ...input,
    now: new Date(),
    hasher: createLineCodeHasher(context.config.sessionSecrets),
  });
  if (check.kind === "wrong") {
    await context.rateLimiter.consume([{ key: guessesKey, rule: failedChecks }]);
  }
  return check;
}

/** The field message of a code that did not prove the number (keys of the "line" namespace). */
export function codeCheckMessage(check: Exclude<CodeCheck, { kind: "proved" }>): string {
  switch (check.kind) {
    case "limited":
      return "line:errors.rateLimited";
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
