import type { Db } from "~/db/db.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { type Line, runningOut } from "./line";
import { isNoticeWorthy, noticePackageKey } from "./line-view";

export interface RunningOutNoticeInput {
  /** The account the line is in, and its e-mail address. */
  accountSub: string;
  email: string;
  /** The line as the BSS just told it. */
  line: Line;
  now: Date;
}

/**
 * Queues the "your line is running out" e-mail when the line runs out (≤ 10 % of its data, or
 * its vigencia ending within 2 days; line.ts runningOut), once per package (line_notices), in
 * one transaction with the record of it. Answers whether it queued one. The e-mail itself reads
 * the line again when it is written, and is not sent once the line no longer runs out.
 */
export async function noteRunningOut(db: Db, input: RunningOutNoticeInput): Promise<boolean> {
  const { line, now } = input;
  if (!line.package || !input.email || !isNoticeWorthy(runningOut(line, now))) return false;
  const packageKey = noticePackageKey(line.package);
  // Read first: every view of a line that runs out would otherwise take the write lock.
  const told = await db
    .selectFrom("line_notices")
    .select("number")
    .where("number", "=", line.number)
    .where("package_key", "=", packageKey)
    .executeTakeFirst();
  if (told) return false;
  return db.transaction().execute(async (trx) => {
    const recorded = await trx
      .insertInto("line_notices")
      .values({ number: line.number, package_key: packageKey, sent_at: now.toISOString() })
      .onConflict((conflict) => conflict.columns(["number", "package_key"]).doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
    return enqueueMail(trx, {
      dedupeKey: `line-running-out:${line.number}:${packageKey}`,
      to: input.email,
      template: "line_running_out",
      data: { number: line.number, accountSub: input.accountSub, packageKey },
    });
  });
}
