import type { Logger } from "pino";
import type { Db } from "~/db/db.server";
import { createQueueRounds, forEachConcurrently } from "~/lib/queue-rounds.server";
import { type Bss, isBssRefused, isBssUnavailable } from "./bss";
import { noteRunningOut } from "./running-out.server";

/**
 * The running-out e-mail for lines nobody is looking at (decision 0094): every so often, each
 * line in an account whose address is known (recorded when the customer last signed in,
 * ~/auth/account-emails.server.ts) is read at the BSS and handed to the same `noteRunningOut`
 * the account's pages call. Its record in line_notices is written in the transaction that queues
 * the e-mail, keyed by number and package, so a sweep in another process or on another machine,
 * or a page viewed at the same moment, never queues a second one.
 *
 * A pass goes through the lines in order of number, a batch at a time (batches follow each other
 * while full, as the queues' rounds do), and starts again from the first at the next interval.
 * The BSS out of reach ends the round: the batch is read again at the next one.
 */

/** How many lines one batch reads. */
const DEFAULT_BATCH = 50;
/** How many BSS calls are under way at once. */
const DEFAULT_CONCURRENCY = 4;

export interface RunningOutSweepOptions {
  db: Db;
  bss: Bss;
  logger: Pick<Logger, "info" | "warn">;
  now?: () => Date;
  batchSize?: number;
  concurrency?: number;
  /** An e-mail was queued: the mailer is nudged. */
  onQueued?: () => void;
}

export interface RunningOutSweepReport {
  /** Lines read at the BSS in this batch. */
  checked: number;
  /** E-mails queued. */
  queued: number;
  /** The BSS did not answer: the batch ended, and is read again next time. */
  bssUnavailable: boolean;
  /** The batch reached the last line: the next one starts from the first. */
  passDone: boolean;
}

export interface RunningOutSweep {
  /** Reads the next batch of at most `limit` lines (after the last batch that finished). */
  runBatch(limit?: number): Promise<RunningOutSweepReport>;
  /** A pass every `intervalMs` in the background (an unref'd timer), starting now. */
  start(intervalMs: number): void;
  /** No more batches; resolves when the one under way is done. */
  stop(): Promise<void>;
}

interface SweptLine {
  number: string;
  account_sub: string;
  email: string;
}

export function createRunningOutSweep(options: RunningOutSweepOptions): RunningOutSweep {
  const { db, bss, logger } = options;
  const clock = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  /** The last number of the last batch that finished; null: the pass starts from the first. */
  let after: string | null = null;

  async function runBatch(limit: number): Promise<RunningOutSweepReport> {
    let query = db
      .selectFrom("lines")
      .innerJoin("account_emails", "account_emails.account_sub", "lines.account_sub")
      .select(["lines.number", "lines.account_sub", "account_emails.email"])
      .orderBy("lines.number")
      .limit(Math.max(1, Math.trunc(limit)));
    if (after !== null) query = query.where("lines.number", ">", after);
    const batch: SweptLine[] = await query.execute();
    const report: RunningOutSweepReport = {
      checked: 0,
      queued: 0,
      bssUnavailable: false,
      passDone: batch.length < limit,
    };
    await forEachConcurrently(batch, concurrency, async ({ number, account_sub, email }) => {
      if (report.bssUnavailable) return;
      let line;
      try {
        line = await bss.findLine(number);
      } catch (error) {
        if (isBssUnavailable(error)) {
          report.bssUnavailable = true;
          return;
        }
        // The BSS will not tell about this number: nothing to notice.
        if (isBssRefused(error)) return;
        throw error;
      }
      report.checked += 1;
      if (!line) return;
      const now = clock();
      if (await noteRunningOut(db, { accountSub: account_sub, email, line, now })) {
        report.queued += 1;
      }
    });
    if (report.queued > 0) options.onQueued?.();
    if (report.bssUnavailable) {
      logger.warn({ msg: "running-out sweep ended: BSS unavailable", checked: report.checked });
      return { ...report, passDone: false };
    }
    after = report.passDone ? null : (batch.at(-1)?.number ?? null);
    if (report.queued > 0) {
      logger.info({ msg: "running-out notices queued", queued: report.queued });
    }
    return report;
  }

  const rounds = createQueueRounds({
    // A full batch that finished is followed by the next; the BSS out of reach ends the round.
    round: async (limit) => {
      const report = await runBatch(limit);
      return { claimed: report.bssUnavailable || report.passDone ? 0 : limit };
    },
    batchSize,
    onRoundFailed: (error) =>
      logger.warn({
        msg: "running-out sweep failed",
        code: (error as { code?: unknown } | null)?.code,
      }),
  });

  return {
    runBatch(limit = batchSize) {
      return rounds.track(runBatch(limit));
    },
    start: rounds.start,
    stop: rounds.stop,
  };
}
