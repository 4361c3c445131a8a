import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { getFixedT } from "~/i18n/i18n.server";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { replyWithFormKey } from "~/lib/form-key";
import { issueFormKey, isOwnFormKey } from "~/lib/form-key.server";
import {
  BALANCE_SHOWN_MS,
  balanceAccessOrNew,
  forgetBalanceAccess,
  readBalanceAccess,
  saveBalanceAccess,
  shownNumber,
} from "./balance-access.server";
import { LINE_FORM_INTENTS, lineCodeSchema, lineNumberSchema } from "./line-forms";
import { readLineFigures } from "./line-pages.server";
import { checkLineCodeTyped, codeCheckMessage, sendLineCode } from "./line-proof.server";
import { BALANCE_PATH } from "./paths";

/**
 * /saldo: anyone sees a line's balance without an account, for a quarter of an hour in the
 * browser that typed the code sent to it by SMS. Every answer is the same whether or not the
 * number is a line (nothing tells which numbers are): a number the BSS does not know gets a code
 * no SMS carries, and typing codes for it goes as it would for a line.
 */

export type BalanceForm = "number" | "code";

export interface BalanceAnswer {
  form: BalanceForm;
  result: SubmissionResult<string[]>;
}

/** The step this browser is at: a number to type, a code to type, or the balance shown. */
export async function loadBalancePage(context: AppLoadContext) {
  const access = readBalanceAccess(context);
  const now = new Date();
  const t = getFixedT("line");
  const page = {
    title: t("balance.title"),
    description: t("balance.description"),
    idempotencyKey: issueFormKey(context, "line-code"),
  };
  const number = shownNumber(access, now.getTime());
  if (number) {
    const { figures } = await readLineFigures(context, number, now);
    return data(
      { ...page, step: "shown" as const, number, figures },
      { status: figures.state === "unavailable" ? 503 : 200 },
    );
  }
  if (access?.pending) {
    return data({ ...page, step: "code" as const, number: access.pending, figures: null });
  }
  return data({ ...page, step: "number" as const, number: null, figures: null });
}

export async function submitBalance(context: AppLoadContext, request: Request) {
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case LINE_FORM_INTENTS.checkCode:
      return checkCode(context, formData);
    case LINE_FORM_INTENTS.resendCode:
      return resendCode(context, formData);
    case LINE_FORM_INTENTS.forget:
      forgetBalanceAccess(context);
      return redirect(BALANCE_PATH, { status: 303 });
    default:
      return sendCode(context, formData);
  }
}

function answer(form: BalanceForm, result: SubmissionResult<string[]>, status: number) {
  return data<BalanceAnswer>({ form, result }, { status });
}

function staleForm(context: AppLoadContext, form: BalanceForm, reply: SubmissionResult<string[]>) {
  return answer(form, replyWithFormKey(reply, issueFormKey(context, "line-code")), 409);
}

async function sendTo(
  context: AppLoadContext,
  form: BalanceForm,
  number: string,
  formKey: string,
  reply: (options?: { formErrors: string[] }) => SubmissionResult<string[]>,
) {
  const access = balanceAccessOrNew(context);
  let sent;
  try {
    sent = await sendLineCode(context, {
      purpose: "balance",
      number,
      holder: access.holder,
      formKey,
      reveal: false,
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, "balance code", error, {
      form,
      result: reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies BalanceAnswer);
  }
  switch (sent.kind) {
    case "limited":
      return data<BalanceAnswer>(
        { form, result: reply({ formErrors: ["line:errors.rateLimited"] }) },
        { status: 429, headers: { "Retry-After": String(sent.retryAfterSeconds) } },
      );
    case "unavailable":
      return answer(form, reply({ formErrors: ["line:errors.unavailable"] }), 503);
    default:
      // "sent", and what the form may not tell (no line, no SMS to it): answered alike.
      saveBalanceAccess(context, { ...access, pending: number, shown: null });
      return redirect(BALANCE_PATH, { status: 303 });
  }
}

async function sendCode(context: AppLoadContext, formData: FormData) {
  const submission = parseWithZod(formData, { schema: lineNumberSchema });
  if (submission.status !== "success") return answer("number", submission.reply(), 400);
  const { phone_number: number, idempotency_key: key } = submission.value;
  if (!isOwnFormKey(context, "line-code", key!)) {
    return staleForm(
      context,
      "number",
      submission.reply({ formErrors: ["line:errors.staleForm"] }),
    );
  }
  return sendTo(context, "number", number, key!, submission.reply);
}

/** Another code to the number waiting for one. */
async function resendCode(context: AppLoadContext, formData: FormData) {
  const pending = readBalanceAccess(context)?.pending;
  const submission = parseWithZod(formData, {
    schema: lineCodeSchema.pick({ idempotency_key: true }),
  });
  if (submission.status !== "success") return answer("code", submission.reply(), 400);
  const key = submission.value.idempotency_key!;
  if (!isOwnFormKey(context, "line-code", key)) {
    return staleForm(context, "code", submission.reply({ formErrors: ["line:errors.staleForm"] }));
  }
  if (!pending) return redirect(BALANCE_PATH, { status: 303 });
  return sendTo(context, "code", pending, key, submission.reply);
}

async function checkCode(context: AppLoadContext, formData: FormData) {
  const submission = parseWithZod(formData, { schema: lineCodeSchema });
  if (submission.status !== "success") return answer("code", submission.reply(), 400);
  const { code, idempotency_key: key } = submission.value;
  if (!isOwnFormKey(context, "line-code", key!)) {
    return staleForm(context, "code", submission.reply({ formErrors: ["line:errors.staleForm"] }));
  }
  const access = readBalanceAccess(context);
  if (!access?.pending) {
    return answer(
      "code",
      submission.reply({ fieldErrors: { code: ["line:errors.codeExpired"] } }),
      400,
    );
  }
  let check;
  try {
    check = await checkLineCodeTyped(context, {
      purpose: "balance",
      number: access.pending,
      holder: access.holder,
      code,
    });
  } catch (error) {
    return databaseBusyOrRethrow(context, "balance code", error, {
      form: "code",
      result: submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    } satisfies BalanceAnswer);
  }
  if (check.kind !== "proved") {
    return answer(
      "code",
      submission.reply({ fieldErrors: { code: [codeCheckMessage(check)] } }),
      400,
    );
  }
  saveBalanceAccess(context, {
    holder: access.holder,
    pending: null,
    shown: { number: access.pending, until: Date.now() + BALANCE_SHOWN_MS },
  });
  return redirect(BALANCE_PATH, { status: 303 });
}
