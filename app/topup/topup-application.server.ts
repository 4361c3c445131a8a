import type { Logger } from "pino";
import type { Db } from "~/db/db.server";
import { formatDate } from "~/lib/dates";
import { type Bss, isBssRefused, isBssUnavailable } from "~/line/bss";
import { type LineJobOutcome, lineJobOutcome, topupJobId } from "~/line/line-jobs.server";
import { formatData } from "./amounts";
import type { Topup } from "./topups.server";

/** What a paid top-up did to its line, as its receipt page and its e-mail tell it. */
export type TopupApplication =
  /** Not paid, or paid before top-ups were applied by the store: nothing to say. */
  | { state: "none" }
  /** Queued, or waiting for the BSS to be back. */
  | { state: "pending" }
  /** The BSS refused it: the customer is asked to write with the folio. */
  | { state: "refused" }
  /**
   * Applied. `line`: the line's vigencia and data as the BSS tells them now; null when it could
   * not be asked (the receipt still says the top-up was applied).
   */
  | {
      state: "applied";
      line: {
        /** The end of the package in force (the BSS's, which counts a package already running). */
        validUntil: string | null;
        data: {
          remaining: ReturnType<typeof formatData>;
          total: ReturnType<typeof formatData>;
        } | null;
        /** Suspended for want of a registration: the package waits for it (decision 0100). */
        unregistered: boolean;
      } | null;
    };

export interface TopupApplicationDeps {
  db: Db;
  /** Reads the line; none: the line's vigencia cannot be told (as if the BSS were out of reach). */
  bss?: Pick<Bss, "findLine">;
  logger: Pick<Logger, "warn">;
  /**
   * The job still pending: what to do about it (the page hurries the worker; the e-mail works the
   * job now, so that it can tell the vigencia). Answers the job's outcome after, if it knows it.
   */
  whilePending?: (jobId: string) => Promise<LineJobOutcome | null> | void;
  /** For the log line when the BSS cannot be asked. */
  requestId?: string;
}

/**
 * The one computation of a paid top-up's effect (issue 48): whether it reached its line (the
 * line-jobs queue) and, once it has, the line's vigencia and data from the BSS. The vigencia is
 * never the payment date plus the amount's days: a top-up on a line whose package is still in
 * force starts when that one ends, and only the BSS knows. Never fails for the BSS: out of reach,
 * the line is null and the rest is told.
 */
export async function topupApplication(
  deps: TopupApplicationDeps,
  topup: Topup,
): Promise<TopupApplication> {
  if (topup.status !== "paid") return { state: "none" };
  const jobId = topupJobId(topup.id);
  let outcome = await lineJobOutcome(deps.db, jobId);
  if (!outcome) return { state: "none" };
  if (outcome.state === "pending") {
    outcome = (await deps.whilePending?.(jobId)) ?? outcome;
    if (outcome.state === "pending") return { state: "pending" };
  }
  if (outcome.state === "refused") return { state: "refused" };
  if (!deps.bss) return { state: "applied", line: null };
  try {
    const line = await deps.bss.findLine(topup.phoneNumber);
    if (!line) return { state: "applied", line: null };
    const data = line.balances.dataMb;
    return {
      state: "applied",
      line: {
        validUntil: line.package ? formatDate(line.package.endsAt) : null,
        data: data
          ? { remaining: formatData(data.remaining), total: formatData(data.total) }
          : null,
        unregistered: line.status === "unregistered",
      },
    };
  } catch (error) {
    if (!isBssUnavailable(error) && !isBssRefused(error)) throw error;
    deps.logger.warn({
      msg: "receipt without its line: BSS unavailable",
      ...(deps.requestId ? { requestId: deps.requestId } : {}),
      reason: error.reason,
    });
    return { state: "applied", line: null };
  }
}
