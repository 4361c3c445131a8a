import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type * as z from "zod";
import type { LineCodePurpose } from "~/db/schema";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { LINE_FORM_INTENTS, lineCodeSchema, lineNumberSchema } from "./line-forms";
import { checkLineCodeTyped, codeCheckMessage, sendLineCode } from "./line-proof.server";
import { isLineOfAccount } from "./lines.server";
import type { RequestContext } from "~/context";

/**
 * A number proved by a code sent to it by SMS, without an account: the number, then the code,
 * each step a redirect back to the page, the proof kept in the page's own sealed cookie. Every
 * answer is the same whether or not the number is a line (nothing tells which numbers are): a
 * number the BSS does not know gets a code no SMS carries, and typing codes for it goes as it
 * would for a line. /saldo and /registro-de-linea prove their numbers this way.
 */

/**
 * What a page's cookie holds of the proof: the browser's own id (whose codes are its own), and
 * the number waiting for its code.
 */
export interface NumberProofAccess {
  holder: string;
  pending: string | null;
}

/** Which of the two forms an answer is for, and its result. */
export interface NumberProofAnswer {
  form: "number" | "code";
  result: SubmissionResult<string[]>;
}

/** What differs from one page to another. */
export interface NumberProofFlow<Access extends NumberProofAccess> {
  purpose: Exclude<LineCodePurpose, "add-line">;
  /** The page: where each step goes back to. */
  path: string;
  /** What the logs call a code of this page that the database could not save. */
  logLabel: string;
  read(context: RequestContext): Access | null;
  /** This browser's access, or a new one with an id of its own. */
  readOrNew(context: RequestContext): Access;
  save(context: RequestContext, access: Access): void;
  /** The access with `number` waiting for its code (and nothing proved). */
  waitingFor(access: Access, number: string): Access;
  /** The access once `access.pending` is proved, `now` in epoch ms. */
  provedNow(access: Access & { pending: string }, now: number): Access;
}

/**
 * The number's form, the code's form, or the code's "another code": its answer. `accountSub`: the
 * signed-in customer sending it, or null; a number already in that account is proved by it, with
 * no code (decision 0135): its owner needs no SMS, so no stranger's requests can keep it out.
 */
export function submitNumberProof<Access extends NumberProofAccess>(
  context: RequestContext,
  formData: FormData,
  flow: NumberProofFlow<Access>,
  accountSub: string | null = null,
) {
  switch (formData.get("intent")) {
    case LINE_FORM_INTENTS.checkCode:
      return checkCode(context, formData, flow);
    case LINE_FORM_INTENTS.resendCode:
      return resendCode(context, formData, flow);
    default:
      return sendCode(context, formData, flow, accountSub);
  }
}

function answer(
  form: NumberProofAnswer["form"],
  result: SubmissionResult<string[]>,
  status: number,
  headers?: HeadersInit,
) {
  return data<NumberProofAnswer>({ form, result }, { status, headers });
}

async function sendTo<Access extends NumberProofAccess>(
  context: RequestContext,
  flow: NumberProofFlow<Access>,
  form: NumberProofAnswer["form"],
  number: string,
  formKey: string,
  reply: (options?: { formErrors: string[] }) => SubmissionResult<string[]>,
) {
  const access = flow.readOrNew(context);
  let sent;
  try {
    sent = await sendLineCode(context, {
      purpose: flow.purpose,
      number,
      holder: access.holder,
      formKey,
      reveal: false,
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, flow.logLabel, error, {
      form,
      result: reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies NumberProofAnswer);
  }
  switch (sent.kind) {
    case "limited":
      return answer(form, reply({ formErrors: ["line:errors.rateLimited"] }), 429, {
        "Retry-After": String(sent.retryAfterSeconds),
      });
    case "unavailable":
      return answer(form, reply({ formErrors: ["line:errors.unavailable"] }), 503);
    default:
      // "sent", and what the form may not tell (no line, no SMS to it): answered alike.
      flow.save(context, flow.waitingFor(access, number));
      return redirect(flow.path, { status: 303 });
  }
}

/**
 * One of the two forms parsed: its value, or its answer (400 for what is wrong in it, 409 for a
 * key of another browser or form: the form kept, with a key of this browser's own).
 */
function parseLineForm<Schema extends z.ZodType<{ idempotency_key?: string }>>(
  context: RequestContext,
  formData: FormData,
  form: NumberProofAnswer["form"],
  schema: Schema,
) {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return { refused: answer(form, submission.reply(), 400) } as const;
  }
  const key = submission.value.idempotency_key!;
  if (!isOwnFormKey(context, "line-code", key)) {
    const reply = submission.reply({ formErrors: ["line:errors.staleForm"] });
    return {
      refused: answer(form, replyWithFormKey(reply, issueFormKey(context, "line-code")), 409),
    } as const;
  }
  return { value: submission.value, key, reply: submission.reply } as const;
}

async function sendCode<Access extends NumberProofAccess>(
  context: RequestContext,
  formData: FormData,
  flow: NumberProofFlow<Access>,
  accountSub: string | null,
) {
  const parsed = parseLineForm(context, formData, "number", lineNumberSchema);
  if ("refused" in parsed) return parsed.refused;
  const number = parsed.value.phone_number;
  if (accountSub) {
    let held;
    try {
      held = await isLineOfAccount(context.db, accountSub, number);
    } catch (error) {
      return databaseBusyOrRethrow(context, flow.logLabel, error, {
        form: "number",
        result: parsed.reply({ formErrors: [DATABASE_BUSY_KEY] }),
      } satisfies NumberProofAnswer);
    }
    if (held) {
      const access = flow.readOrNew(context);
      flow.save(context, flow.provedNow({ ...access, pending: number }, Date.now()));
      context.logger.info({
        msg: "number proved by the account that holds it",
        purpose: flow.purpose,
        requestId: context.requestId,
      });
      return redirect(flow.path, { status: 303 });
    }
  }
  return sendTo(context, flow, "number", number, parsed.key, parsed.reply);
}

/** Another code to the number waiting for one. */
async function resendCode<Access extends NumberProofAccess>(
  context: RequestContext,
  formData: FormData,
  flow: NumberProofFlow<Access>,
) {
  const pending = flow.read(context)?.pending;
  const parsed = parseLineForm(
    context,
    formData,
    "code",
    lineCodeSchema.pick({ idempotency_key: true }),
  );
  if ("refused" in parsed) return parsed.refused;
  if (!pending) return redirect(flow.path, { status: 303 });
  return sendTo(context, flow, "code", pending, parsed.key, parsed.reply);
}

async function checkCode<Access extends NumberProofAccess>(
  context: RequestContext,
  formData: FormData,
  flow: NumberProofFlow<Access>,
) {
  const parsed = parseLineForm(context, formData, "code", lineCodeSchema);
  if ("refused" in parsed) return parsed.refused;
  const { value, reply } = parsed;
  const access = flow.read(context);
  const pending = access?.pending;
  if (!access || !pending) {
    return answer("code", reply({ fieldErrors: { code: ["line:errors.codeExpired"] } }), 400);
  }
  let check;
  try {
    check = await checkLineCodeTyped(context, {
      purpose: flow.purpose,
      number: pending,
      holder: access.holder,
      code: value.code,
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, flow.logLabel, error, {
      form: "code",
      result: reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies NumberProofAnswer);
  }
  if (check.kind !== "proved") {
    const status = check.kind === "limited" ? 429 : 400;
    return answer("code", reply({ fieldErrors: { code: [codeCheckMessage(check)] } }), status);
  }
  flow.save(context, flow.provedNow({ ...access, pending }, Date.now()));
  return redirect(flow.path, { status: 303 });
}
