import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Customer } from "~/auth/tokens";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import { isLineNumber } from "~/line/line";
import { formatLineNumber } from "~/line/line-view";
import { isLineOfAccount } from "~/line/lines.server";
import { linePath } from "~/line/paths";
import { listSavedCards, savedCardView } from "~/payments/saved-cards.server";
import { topupLinePath } from "~/line/paths";
import { autoTopupSchema } from "./auto-topup-schema";
import { recentCharges, summarise } from "./auto-topup-view.server";
import { findAutoTopup, saveAutoTopup, turnOffAutoTopup } from "./auto-topups.server";
import { autoTopupPath } from "./paths";
import { ruleOfChoice } from "./rules";
import type { RequestContext } from "~/context";

/** One of the account's lines, or the site's 404 (which says nothing of whose it is). */
async function requireOwnLine(context: RequestContext, customer: Customer, number: unknown) {
  if (!isLineNumber(number) || !(await isLineOfAccount(context.db, customer.sub, number))) {
    throw data(null, { status: 404 });
  }
  return number;
}

/**
 * The automatic top-up's page of a line (decision 0120): how it stands, its form with the
 * account's saved cards, and its last charges. A line that is not the account's is a 404.
 */
export async function loadAutoTopupPage(
  context: RequestContext,
  customer: Customer,
  rawNumber: string | undefined,
) {
  const number = await requireOwnLine(context, customer, rawNumber);
  const provider = context.payments.provider.name;
  const [autoTopup, cards] = await Promise.all([
    findAutoTopup(context.db, customer.sub, number),
    listSavedCards(context.db, customer.sub, provider),
  ]);
  return {
    title: getFixedT("topup")("auto.title", { number: formatLineNumber(number) }),
    number,
    summary: autoTopup ? await summarise(context.db, autoTopup, provider, new Date()) : null,
    cards: cards.map(savedCardView),
    charges: await recentCharges(context.db, autoTopup),
    topUpTo: topupLinePath(number),
  };
}

/**
 * The form sent: switched on (or its settings changed) with one of the account's cards, or
 * switched off. A card that is not the account's is refused next to its field; nothing else
 * changes.
 */
export async function submitAutoTopup(
  context: RequestContext,
  request: Request,
  customer: Customer,
  rawNumber: string | undefined,
) {
  const number = await requireOwnLine(context, customer, rawNumber);
  const submission = parseWithZod(await request.formData(), { schema: autoTopupSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const values = submission.value;
  const now = new Date();
  try {
    if (values.intent === "desactivar") {
      if (await turnOffAutoTopup(context.db, { accountSub: customer.sub, number, now })) {
        context.logger.info({ msg: "automatic top-up switched off", requestId: context.requestId });
      }
      setFlash(context, { kind: "success", key: "topup:auto.flash.off" });
      return redirect(linePath(number), { status: 303 });
    }
    const cards = await listSavedCards(context.db, customer.sub, context.payments.provider.name);
    if (!cards.some((card) => card.id === values.tarjeta)) {
      return data(
        submission.reply({ fieldErrors: { tarjeta: ["topup:auto.errors.cardRequired"] } }),
        { status: 400 },
      );
    }
    await saveAutoTopup(context.db, {
      accountSub: customer.sub,
      number,
      amount: values.amount,
      ...ruleOfChoice(values.cuando),
      monthlyMax: values.tope,
      savedCardId: values.tarjeta,
      email: customer.email,
      now,
    });
    context.logger.info({ msg: "automatic top-up switched on", requestId: context.requestId });
    setFlash(context, { kind: "success", key: "topup:auto.flash.on" });
    return redirect(autoTopupPath(number), { status: 303 });
  } catch (error) {
    return databaseBusyOrRethrow(
      context,
      "automatic top-up",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}
