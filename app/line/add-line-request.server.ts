import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Customer } from "~/auth/tokens";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { setFlash } from "~/lib/flash.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import { maskPhoneNumber } from "~/topup/phone";
import { pendingLineCode } from "./line-codes.server";
import { LINE_FORM_INTENTS, lineCodeWithNumberSchema, lineNumberSchema } from "./line-forms";
import { checkLineCodeTyped, codeCheckMessage, sendLineCode } from "./line-proof.server";
import { formatLineNumber } from "./line-view";
import { isLineOfAccount, linkLine } from "./lines.server";
import { linePath, LINES_PATH } from "./paths";
import type { RequestContext } from "~/context";

/**
 * Adding a line the customer already has to their account: the number, a code sent to it by
 * SMS, the code typed back. A number is in at most one account: one proved here moves to this
 * account from any other (the code again is what moving takes).
 */

/** Which form of the page an answer is for. */
export type AddLineForm = "number" | "code";

export interface AddLineAnswer {
  form: AddLineForm;
  result: SubmissionResult<string[]>;
  /**
   * The code's form: the number it is for. Its form stays on the page when its code can no
   * longer be typed (5 wrong tries, expired), with the message and the way to a new one.
   */
  number?: string;
}

/** The page's form key (both forms) and the number waiting for its code, if one is. */
export async function loadAddLineForm(context: RequestContext, customer: Customer) {
  const pending = await pendingLineCode(
    context.db,
    { holder: customer.sub, purpose: "add-line" },
    new Date(),
  );
  return {
    idempotencyKey: issueFormKey(context, "line-code"),
    pending: pending ? { number: pending.number, attemptsLeft: pending.attemptsLeft } : null,
  };
}

function answer(
  form: AddLineForm,
  result: SubmissionResult<string[]>,
  status: number,
  number?: string,
) {
  return data<AddLineAnswer>({ form, result, number }, { status });
}

export async function submitAddLine(context: RequestContext, request: Request, customer: Customer) {
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === LINE_FORM_INTENTS.checkCode) return checkCode(context, formData, customer);
  return sendCode(context, formData, customer, intent === LINE_FORM_INTENTS.resendCode);
}

/** A write or a limit the database cannot take now: a 503, the form kept (decision 0086). */
function databaseBusy(
  context: RequestContext,
  form: AddLineForm,
  reply: (options: { formErrors: string[] }) => SubmissionResult<string[]>,
  error: unknown,
) {
  const body: AddLineAnswer = { form, result: reply({ formErrors: [DATABASE_BUSY_KEY] }) };
  return databaseBusyOrRethrow(context, "line code", error, body);
}

/** The number sent (or sent again from the code's form): a code goes to it by SMS. */
async function sendCode(
  context: RequestContext,
  formData: FormData,
  customer: Customer,
  resend: boolean,
) {
  const form: AddLineForm = resend ? "code" : "number";
  const submission = parseWithZod(formData, { schema: lineNumberSchema });
  if (submission.status !== "success") return answer(form, submission.reply(), 400);
  const { phone_number: number, idempotency_key: key } = submission.value;
  if (!isOwnFormKey(context, "line-code", key!)) {
    const refused = submission.reply({ formErrors: ["line:errors.staleForm"] });
    return answer(form, replyWithFormKey(refused, issueFormKey(context, "line-code")), 409);
  }
  const fieldError = (message: string, status = 400) =>
    answer(
      form,
      resend
        ? submission.reply({ formErrors: [message] })
        : submission.reply({ fieldErrors: { phone_number: [message] } }),
      status,
    );
  let sent;
  try {
    if (await isLineOfAccount(context.db, customer.sub, number)) {
      return fieldError("line:errors.lineAlreadyYours");
    }
    sent = await sendLineCode(context, {
      purpose: "add-line",
      number,
      holder: customer.sub,
      formKey: key!,
      reveal: true,
    });
  } catch (error) {
    return databaseBusy(context, form, submission.reply, error);
  }
  switch (sent.kind) {
    case "sent":
      return redirect(LINES_PATH, { status: 303 });
    case "limited":
      return data<AddLineAnswer>(
        { form, result: submission.reply({ formErrors: ["line:errors.rateLimited"] }) },
        { status: 429, headers: { "Retry-After": String(sent.retryAfterSeconds) } },
      );
    case "not-a-line":
      return fieldError(
        sent.problem === "unknown" ? "line:errors.lineUnknown" : "line:errors.lineTerminated",
      );
    case "unreachable":
      return fieldError("line:errors.unreachable");
    case "unavailable":
      return answer(form, submission.reply({ formErrors: ["line:errors.unavailable"] }), 503);
  }
}

/** The code typed: right, the line is in this account (moved from another, if it was). */
async function checkCode(context: RequestContext, formData: FormData, customer: Customer) {
  const submission = parseWithZod(formData, { schema: lineCodeWithNumberSchema });
  if (submission.status !== "success") return answer("code", submission.reply(), 400);
  const { phone_number: number, code, idempotency_key: key } = submission.value;
  if (!isOwnFormKey(context, "line-code", key!)) {
    const refused = submission.reply({ formErrors: ["line:errors.staleForm"] });
    return answer("code", replyWithFormKey(refused, issueFormKey(context, "line-code")), 409);
  }
  let accountSub: string;
  try {
    const check = await checkLineCodeTyped(context, {
      purpose: "add-line",
      number,
      holder: customer.sub,
      code,
    });
    if (check.kind !== "proved") {
      return answer(
        "code",
        submission.reply({ fieldErrors: { code: [codeCheckMessage(check)] } }),
        check.kind === "limited" ? 429 : 400,
        number,
      );
    }
    ({ accountSub } = await linkLine(
      context.db,
      {
        number,
        accountSub: customer.sub,
        source: "added",
        sourceRef: check.codeId,
        now: new Date(),
      },
      { move: true },
    ));
  } catch (error) {
    return databaseBusy(context, "code", submission.reply, error);
  }
  context.logger.info({
    msg: "line added to an account",
    line: maskPhoneNumber(number),
    linked: accountSub === customer.sub,
    requestId: context.requestId,
  });
  setFlash(context, {
    kind: "success",
    key: "line:flash.added",
    values: { number: formatLineNumber(number) },
  });
  return redirect(linePath(number), { status: 303 });
}
