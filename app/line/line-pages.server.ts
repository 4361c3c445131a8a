import { data } from "react-router";
import type { Customer } from "~/auth/tokens";
import { isDatabaseUnavailable } from "~/db/db.server";
import { getFixedT } from "~/i18n/i18n.server";
import { autoTopupSummary } from "~/auto-topup/auto-topup-view.server";
import { autoTopupPath } from "~/auto-topup/paths";
import { lineRegistrationView } from "~/registration/activation-registrations.server";
import { receiptPath } from "~/topup/paths";
import { paidTopupsOfLine } from "~/topup/topups.server";
import { isBssRefused, isBssUnavailable } from "./bss";
import { type DailyUsage, isLineNumber, lastDays, type Line, USAGE_HISTORY_DAYS } from "./line";
import { formatLineNumber, type LineSummary, lineSummary } from "./line-view";
import { lineJoinedAccountAt, linesOfAccount } from "./lines.server";
import { noteRunningOut } from "./running-out.server";
import type { RequestContext } from "~/context";

/**
 * What the customer's line pages read: the lines of the account, each as the BSS tells it now.
 * The BSS out of reach leaves the rest of the page working: the line's figures say "no pudimos
 * consultar tu línea", never a 500.
 */

export type LineFigures =
  | { state: "shown"; summary: LineSummary }
  /** The BSS did not answer (down, slow, unreadable). */
  | { state: "unavailable" }
  /** The BSS does not know the number (any more). */
  | { state: "unknown" };

/** The line's figures at `now`, and the line itself when the BSS told it. */
export async function readLineFigures(
  context: RequestContext,
  number: string,
  now: Date,
): Promise<{ figures: LineFigures; line: Line | null }> {
  try {
    const line = await context.bss.findLine(number);
    if (!line) return { figures: { state: "unknown" }, line: null };
    return { figures: { state: "shown", summary: lineSummary(line, now) }, line };
  } catch (error) {
    if (isBssUnavailable(error)) {
      context.logger.warn({ msg: "line not read: BSS unavailable", requestId: context.requestId });
      return { figures: { state: "unavailable" }, line: null };
    }
    if (isBssRefused(error)) return { figures: { state: "unknown" }, line: null };
    throw error;
  }
}

/**
 * The running-out e-mail, once per package, when the account looks at a line that runs out
 * (decision 0091). A database that cannot take the record now only delays it to the next view.
 */
async function noticeRunningOut(
  context: RequestContext,
  customer: Customer,
  line: Line,
  now: Date,
): Promise<void> {
  try {
    const queued = await noteRunningOut(context.db, {
      accountSub: customer.sub,
      email: customer.email,
      line,
      now,
    });
    if (queued) context.mailer.nudge();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    context.logger.warn({ msg: "running-out notice not recorded: database unavailable" });
  }
}

export interface AccountLineView {
  number: string;
  figures: LineFigures;
}

/** Every line of the account, the first linked first, each with what is left at a glance. */
export async function loadAccountLines(
  context: RequestContext,
  customer: Customer,
): Promise<AccountLineView[]> {
  const now = new Date();
  const lines = await linesOfAccount(context.db, customer.sub);
  return Promise.all(
    lines.map(async ({ number }) => {
      const { figures, line } = await readLineFigures(context, number, now);
      if (line) await noticeRunningOut(context, customer, line, now);
      return { number, figures };
    }),
  );
}

export type UsageView =
  { state: "shown"; from: string; to: string; days: DailyUsage[] } | { state: "unavailable" };

export interface LineTopupView {
  folio: string;
  amount: number;
  paidAt: string;
  /** The receipt, for the account's own top-ups only (its address is their secret). */
  receipt: string | null;
}

/**
 * One line of the account: its figures, its usage by day for 30 days and its last top-ups. A
 * number that is not one of the account's lines is a 404 that says nothing of whose it is. The
 * BSS out of reach answers 503, with the rest of the page.
 */
export async function loadLinePage(
  context: RequestContext,
  customer: Customer,
  number: string | undefined,
) {
  const joinedAt = isLineNumber(number)
    ? await lineJoinedAccountAt(context.db, customer.sub, number)
    : null;
  if (!isLineNumber(number) || joinedAt === null) throw data(null, { status: 404 });
  const now = new Date();
  const { from, to } = lastDays(USAGE_HISTORY_DAYS, now);
  const [read, usage, topups, registration, autoTopup] = await Promise.all([
    readLineFigures(context, number, now),
    readUsage(context, number, from, to),
    paidTopupsOfLine(context.db, number, { accountSub: customer.sub, since: joinedAt }),
    lineRegistrationView(context.db, number),
    autoTopupSummary(context.db, {
      accountSub: customer.sub,
      number,
      provider: context.payments.provider.name,
      now,
    }),
  ]);
  if (read.line) await noticeRunningOut(context, customer, read.line, now);
  return data(
    {
      title: getFixedT("line")("page.title", { number: formatLineNumber(number) }),
      number,
      figures: read.figures,
      /** Its registration to its holder: the folio, or pendiente de registro (issue 27). */
      registration,
      /** Its automatic top-up, if ever set (decision 0120). */
      autoTopup,
      autoTopupPath: autoTopupPath(number),
      usage,
      topups: topups.map((topup): LineTopupView => ({
        folio: topup.folio,
        amount: topup.amount,
        paidAt: topup.paidAt ?? topup.createdAt,
        receipt: topup.customerSub === customer.sub ? receiptPath(topup.id) : null,
      })),
    },
    { status: read.figures.state === "unavailable" ? 503 : 200 },
  );
}

async function readUsage(
  context: RequestContext,
  number: string,
  from: string,
  to: string,
): Promise<UsageView> {
  try {
    return { state: "shown", from, to, days: await context.bss.usageByDay(number, from, to) };
  } catch (error) {
    if (isBssUnavailable(error) || isBssRefused(error)) return { state: "unavailable" };
    throw error;
  }
}
