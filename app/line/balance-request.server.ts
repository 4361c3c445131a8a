import { data, redirect } from "react-router";
import { getFixedT } from "~/i18n/i18n.server";
import { issueFormKey } from "~/lib/form-key.server";
import {
  BALANCE_SHOWN_MS,
  balanceAccessOrNew,
  forgetBalanceAccess,
  readBalanceAccess,
  saveBalanceAccess,
  shownNumber,
  type BalanceAccess,
} from "./balance-access.server";
import { LINE_FORM_INTENTS } from "./line-forms";
import { readLineFigures } from "./line-pages.server";
import { submitNumberProof, type NumberProofFlow } from "./number-proof-flow.server";
import { BALANCE_PATH } from "./paths";
import type { RequestContext } from "~/context";

/**
 * /saldo: anyone sees a line's balance without an account, for a quarter of an hour in the
 * browser that typed the code sent to it by SMS (number-proof-flow.server.ts: the same answers
 * whether or not the number is a line).
 */

const balanceProof: NumberProofFlow<BalanceAccess> = {
  purpose: "balance",
  path: BALANCE_PATH,
  logLabel: "balance code",
  read: readBalanceAccess,
  readOrNew: balanceAccessOrNew,
  save: saveBalanceAccess,
  waitingFor: (access, number) => ({ ...access, pending: number, shown: null }),
  provedNow: (access, now) => ({
    holder: access.holder,
    pending: null,
    shown: { number: access.pending, until: now + BALANCE_SHOWN_MS },
  }),
};

/** The step this browser is at: a number to type, a code to type, or the balance shown. */
export async function loadBalancePage(context: RequestContext) {
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

/** `accountSub`: the signed-in customer, whose own lines show without a code; or null. */
export async function submitBalance(
  context: RequestContext,
  request: Request,
  accountSub: string | null = null,
) {
  const formData = await request.formData();
  if (formData.get("intent") === LINE_FORM_INTENTS.forget) {
    forgetBalanceAccess(context);
    return redirect(BALANCE_PATH, { status: 303 });
  }
  return submitNumberProof(context, formData, balanceProof, accountSub);
}
