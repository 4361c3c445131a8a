import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { isUniqueViolation, type Db } from "~/db/db.server";
import type { AutoTopupChargesTable, AutoTopupsTable } from "~/db/schema";
import { forEachConcurrently, createQueueRounds } from "~/lib/queue-rounds.server";
import { type Bss, isBssRefused, isBssUnavailable } from "~/line/bss";
import { lineJobOutcome, topupJobId } from "~/line/line-jobs.server";
import { accountOfLine } from "~/line/lines.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import type { PaymentService } from "~/payments/payments.server";
import { isPaymentProviderUnavailable } from "~/payments/provider";
import { findSavedCardById, type SavedCard } from "~/payments/saved-cards.server";
import { createTopup, findTopup, TOPUP_PAYMENT_PURPOSE, topupPayment } from "~/topup/topups.server";
import { paidThisMonth, toAutoTopup, type AutoTopup } from "./auto-topups.server";
import { currentPeriod, decide, MAX_FAILED_CHARGES, mexicoCityMonth } from "./rules";

/**
 * The automatic top-ups' scheduler (decisions 0120, 0121). One process runs it (a cluster's
 * first worker, as the voucher and running-out sweeps), every AUTO_TOPUP_SWEEP_SECONDS: each
 * active automatic top-up is claimed in the database with a lease (a conditional UPDATE), its
 * line read at the BSS, and, when the line calls for it, its period's charge made off-session
 * with the saved card. A second scheduler (another machine, a process started while the first
 * still ran) claims nothing that is held, and the database refuses a second charge row of one
 * line and period; the provider's idempotency key (line, period and attempt) makes a charge asked
 * for again after a lost answer the same charge. A process that dies holding a lease lets go of
 * it when the lease runs out.
 */

const DEFAULT_BATCH = 50;
const DEFAULT_CONCURRENCY = 4;
/** Longer than a BSS read and a provider's charge with its retry can take. */
export const AUTO_TOPUP_LEASE_MS = 5 * 60_000;

export interface AutoTopupSchedulerOptions {
  db: Db;
  bss: Bss;
  payments: PaymentService;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** How long after a declined charge it is tried again (the second and last time). */
  retryMinutes: number;
  now?: () => Date;
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
  /** An e-mail was queued: the mailer is nudged. */
  onMailQueued?: () => void;
  /** A charge was paid: its top-up waits in the line-jobs queue, which is nudged. */
  onPaid?: () => void;
}

export interface AutoTopupRoundReport {
  /** Automatic top-ups claimed and looked at. */
  checked: number;
  /** Notices queued (a charge coming). */
  noticed: number;
  paid: number;
  declined: number;
  /** The bank asked for authentication: the customer was sent a link to pay. */
  awaitingCustomer: number;
  /** Not charged: the monthly cap reached, or the line topped up otherwise. */
  skipped: number;
  /** Stopped: two declined charges, or the line left the account. */
  stopped: number;
  /** The BSS or the provider out of reach: the round ended, tried again next time. */
  unavailable: boolean;
}

export interface AutoTopupSchedulerStatus {
  lastRoundAt: string | null;
  lastRoundError: string | null;
}

export interface AutoTopupScheduler {
  /** Looks at up to `limit` automatic top-ups, the least recently checked first. */
  runRound(limit?: number): Promise<AutoTopupRoundReport>;
  /** A round every `intervalMs` in the background (an unref'd timer), starting now. */
  start(intervalMs: number): void;
  /** No more rounds; resolves when the one under way is done. */
  stop(): Promise<void>;
  status(): AutoTopupSchedulerStatus;
}

/** Where an automatic top-up stands, for /readyz and the operator. */
export interface AutoTopupStats {
  active: number;
  stopped: number;
  /** Charges the bank asked the customer to authenticate, still unpaid. */
  awaitingCustomer: number;
  /** Charges due (scheduled or retrying) whose time has passed: alert when it grows. */
  overdue: number;
  oldestOverdueSeconds: number;
  /** When a scheduler last looked at a line (any process, any machine). */
  lastCheckedAt: string | null;
}

/** Charges due more than this long ago count as overdue (a round or two missed). */
const OVERDUE_GRACE_MS = 15 * 60_000;

export async function autoTopupStats(db: Db, now: Date = new Date()): Promise<AutoTopupStats> {
  const states = await db
    .selectFrom("auto_topups")
    .select((eb) => [
      "state",
      eb.fn.countAll<number>().as("count"),
      eb.fn.max("checked_at").as("checked"),
    ])
    .groupBy("state")
    .execute();
  const charges = await db
    .selectFrom("auto_topup_charges")
    .innerJoin("auto_topups", "auto_topups.id", "auto_topup_charges.auto_topup_id")
    .select((eb) => [
      "auto_topup_charges.state",
      eb.fn.countAll<number>().as("count"),
      eb.fn.min("auto_topup_charges.due_at").as("oldest"),
    ])
    .where("auto_topups.state", "=", "active")
    .where((eb) =>
      eb.or([
        eb("auto_topup_charges.state", "=", "awaiting_customer"),
        eb.and([
          eb("auto_topup_charges.state", "in", ["scheduled", "retrying"]),
          eb(
            "auto_topup_charges.due_at",
            "<",
            new Date(now.getTime() - OVERDUE_GRACE_MS).toISOString(),
          ),
        ]),
      ]),
    )
    .groupBy("auto_topup_charges.state")
    .execute();
  const count = (rows: Array<{ state: string; count: unknown }>, ...wanted: string[]) =>
    rows
      .filter((row) => wanted.includes(row.state))
      .reduce((sum, row) => sum + Number(row.count), 0);
  const oldest = charges
    .filter((row) => row.state !== "awaiting_customer" && row.oldest)
    .map((row) => Date.parse(String(row.oldest)))
    .reduce((min, time) => Math.min(min, time), Number.POSITIVE_INFINITY);
  const checked = states
    .map((row) => (row.checked ? String(row.checked) : null))
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1);
  return {
    active: count(states, "active"),
    stopped: count(states, "stopped"),
    awaitingCustomer: count(charges, "awaiting_customer"),
    overdue: count(charges, "scheduled", "retrying"),
    oldestOverdueSeconds: Number.isFinite(oldest)
      ? Math.max(0, Math.floor((now.getTime() - oldest) / 1000))
      : 0,
    lastCheckedAt: checked ?? null,
  };
}

class RoundEnded extends Error {}

function describe(error: unknown): string {
  if (isBssUnavailable(error)) return `bss unavailable: ${error.reason}`;
  if (isPaymentProviderUnavailable(error)) return "payment provider unavailable";
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : error instanceof Error ? error.name : "unknown";
}

export function createAutoTopupScheduler(options: AutoTopupSchedulerOptions): AutoTopupScheduler {
  const { db, bss, payments, logger } = options;
  const clock = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? AUTO_TOPUP_LEASE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  /** This scheduler's name on the leases it holds. */
  const owner = `${process.pid}-${randomBytes(6).toString("base64url")}`;
  const status: AutoTopupSchedulerStatus = { lastRoundAt: null, lastRoundError: null };

  /**
   * Takes the lease of an automatic top-up not checked since `since` (its pass's start): another
   * scheduler may have checked and released it between this one's batch query and now.
   */
  async function claim(id: string, now: Date, since: string): Promise<AutoTopupsTable | null> {
    const at = now.toISOString();
    const claimed = await db
      .updateTable("auto_topups")
      .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where("id", "=", id)
      .where("state", "=", "active")
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]))
      .where((eb) => eb.or([eb("checked_at", "is", null), eb("checked_at", "<", since)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    return (
      (await db
        .selectFrom("auto_topups")
        .selectAll()
        .where("id", "=", id)
        .where("lease_owner", "=", owner)
        .executeTakeFirst()) ?? null
    );
  }

  async function release(id: string, checked: boolean) {
    await db
      .updateTable("auto_topups")
      .set({
        lease_owner: null,
        lease_until: null,
        ...(checked ? { checked_at: clock().toISOString() } : {}),
      })
      .where("id", "=", id)
      .where("lease_owner", "=", owner)
      .execute();
  }

  /** Changes a charge from the state it was read in; false when something else changed it. */
  async function moveCharge(
    executor: Db,
    charge: AutoTopupChargesTable,
    values: Partial<AutoTopupChargesTable>,
  ): Promise<boolean> {
    const result = await executor
      .updateTable("auto_topup_charges")
      .set({ ...values, updated_at: clock().toISOString() })
      .where("id", "=", charge.id)
      .where("state", "=", charge.state)
      .where("attempts", "=", charge.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A charge the bank wanted the customer to authenticate ends when the top-up it made does: paid
   * by the customer from the link they were sent (it counts towards the month's cap), or cancelled
   * (a voucher they chose instead, expired).
   */
  async function settleAwaiting(autoTopup: AutoTopup): Promise<void> {
    const waiting = await db
      .selectFrom("auto_topup_charges")
      .innerJoin("topups", "topups.id", "auto_topup_charges.topup_id")
      .selectAll("auto_topup_charges")
      .select("topups.status as topup_status")
      .where("auto_topup_charges.auto_topup_id", "=", autoTopup.id)
      .where("auto_topup_charges.state", "=", "awaiting_customer")
      .where("topups.status", "!=", "pending_payment")
      .execute();
    for (const { topup_status: topupStatus, ...charge } of waiting) {
      const paid = topupStatus === "paid";
      await moveCharge(db, charge, {
        state: paid ? "paid" : "skipped",
        last_result: paid ? "paid_by_customer" : "unpaid",
        settled_at: clock().toISOString(),
      });
    }
  }

  /**
   * Whether the last charge is still under way: paid and its top-up not yet applied to the line
   * (the next period starts once it is), or waiting for the customer to pay the link they were
   * sent. Either way no new charge is made meanwhile.
   */
  async function chargeInFlight(autoTopup: AutoTopup): Promise<boolean> {
    const last = await db
      .selectFrom("auto_topup_charges")
      .selectAll()
      .where("auto_topup_id", "=", autoTopup.id)
      .where("state", "in", ["paid", "awaiting_customer"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!last?.topup_id) return false;
    if (last.state === "awaiting_customer") {
      return (await findTopup(db, last.topup_id))?.status === "pending_payment";
    }
    const job = await lineJobOutcome(db, topupJobId(last.topup_id));
    return job !== null && job.state !== "done";
  }

  /** Open charges of a period that is over: the line was topped up otherwise, or moved on. */
  async function supersede(autoTopup: AutoTopup, period: string): Promise<number> {
    const stale = await db
      .selectFrom("auto_topup_charges")
      .selectAll()
      .where("auto_topup_id", "=", autoTopup.id)
      .where("state", "in", ["scheduled", "retrying"])
      .where("period", "!=", period)
      .execute();
    let skipped = 0;
    for (const charge of stale) {
      const now = clock().toISOString();
      if (
        await moveCharge(db, charge, {
          state: "skipped",
          last_result: "superseded",
          settled_at: now,
        })
      ) {
        skipped += 1;
      }
    }
    return skipped;
  }

  /** The period's charge, made now with its notice e-mail (once: the database keeps one per line and period). */
  async function chargeRowFor(
    autoTopup: AutoTopup,
    period: string,
    dueAt: Date,
  ): Promise<{ row: AutoTopupChargesTable; created: boolean }> {
    const existing = await db
      .selectFrom("auto_topup_charges")
      .selectAll()
      .where("number", "=", autoTopup.number)
      .where("period", "=", period)
      .executeTakeFirst();
    if (existing) return { row: existing, created: false };
    const at = clock().toISOString();
    const row: AutoTopupChargesTable = {
      id: `rac_${randomBytes(12).toString("base64url")}`,
      auto_topup_id: autoTopup.id,
      number: autoTopup.number,
      period,
      amount: autoTopup.amount,
      state: "scheduled",
      topup_id: null,
      attempts: 0,
      due_at: dueAt.toISOString(),
      last_result: null,
      created_at: at,
      updated_at: at,
      settled_at: null,
    };
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("auto_topup_charges").values(row).execute();
        await enqueueMail(trx, {
          dedupeKey: `auto-topup-notice:${row.id}`,
          to: autoTopup.email,
          template: "auto_topup_notice",
          data: { chargeId: row.id },
        });
      });
      return { row, created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another scheduler made this period's charge first: that one is the period's.
      const winner = await db
        .selectFrom("auto_topup_charges")
        .selectAll()
        .where("number", "=", autoTopup.number)
        .where("period", "=", period)
        .executeTakeFirstOrThrow();
      return { row: winner, created: false };
    }
  }

  type Charged = "paid" | "declined" | "awaiting_customer" | "skipped" | "stopped" | "lost";

  /** One charge of the period: its top-up made once, then the saved card charged off-session. */
  async function charge(
    autoTopup: AutoTopup,
    row: AutoTopupChargesTable,
    card: SavedCard,
    report: AutoTopupRoundReport,
  ): Promise<Charged> {
    const now = clock();
    const { month } = mexicoCityMonth(now);
    if ((await paidThisMonth(db, autoTopup.id, now)) >= autoTopup.monthlyMax) {
      const moved = await db.transaction().execute(async (trx) => {
        const done = await moveCharge(trx, row, {
          state: "skipped",
          last_result: "cap",
          settled_at: now.toISOString(),
        });
        if (done) {
          await enqueueMail(trx, {
            dedupeKey: `auto-topup-cap:${autoTopup.id}:${month}`,
            to: autoTopup.email,
            template: "auto_topup_cap",
            data: { autoTopupId: autoTopup.id, month },
          });
        }
        return done;
      });
      return moved ? "skipped" : "lost";
    }
    const created = await createTopup(db, {
      customerSub: autoTopup.accountSub,
      email: autoTopup.email,
      idempotencyKey: `auto-topup:${row.id}`,
      phoneNumber: autoTopup.number,
      amount: row.amount,
    });
    if (created.kind === "conflict") throw new Error("an automatic top-up's key was taken");
    const topup = created.topup;
    if (row.topup_id === null) {
      await db
        .updateTable("auto_topup_charges")
        .set({ topup_id: topup.id })
        .where("id", "=", row.id)
        .where("topup_id", "is", null)
        .execute();
    }
    const attempt = Number(row.attempts) + 1;
    const result = await payments.chargeSavedCard({
      purpose: TOPUP_PAYMENT_PURPOSE,
      reference: topup.id,
      amount: topup.amount,
      description: topupPayment(topup).description,
      card,
      offSession: true,
      // One charge per line, period and attempt, at the provider too: asked again after an
      // answer was lost (a restart, a timeout), the provider answers the same charge.
      idempotencyKey: `auto-topup:${autoTopup.number}:${row.period}:${attempt}`,
    });
    const settledAt = clock().toISOString();
    const current = { ...row, topup_id: topup.id };
    if (result.kind === "approved" || result.kind === "already_paid") {
      const moved = await db.transaction().execute(async (trx) => {
        const done = await moveCharge(trx, current, {
          state: "paid",
          attempts: attempt,
          last_result: null,
          settled_at: settledAt,
        });
        if (done) {
          await trx
            .updateTable("auto_topups")
            .set({ failures: 0 })
            .where("id", "=", autoTopup.id)
            .execute();
        }
        return done;
      });
      options.onPaid?.();
      return moved ? "paid" : "lost";
    }
    if (result.kind === "pending") return "lost";
    if (result.reason === "authentication_required") {
      // Not the customer's failure: the bank wants them. A link to pay, not silence.
      const moved = await db.transaction().execute(async (trx) => {
        const done = await moveCharge(trx, current, {
          state: "awaiting_customer",
          attempts: attempt,
          last_result: result.reason,
          settled_at: settledAt,
        });
        if (done) {
          await enqueueMail(trx, {
            dedupeKey: `auto-topup-action:${row.id}`,
            to: autoTopup.email,
            template: "auto_topup_action_required",
            data: { chargeId: row.id },
          });
        }
        return done;
      });
      return moved ? "awaiting_customer" : "lost";
    }
    const failures = autoTopup.failures + 1;
    const stopping = failures >= MAX_FAILED_CHARGES;
    const retryAt = new Date(clock().getTime() + options.retryMinutes * 60_000).toISOString();
    const moved = await db.transaction().execute(async (trx) => {
      const done = await moveCharge(trx, current, {
        state: stopping ? "failed" : "retrying",
        attempts: attempt,
        last_result: result.reason,
        due_at: stopping ? row.due_at : retryAt,
        settled_at: stopping ? settledAt : null,
      });
      if (!done) return false;
      await trx
        .updateTable("auto_topups")
        .set({
          failures,
          ...(stopping ? { state: "stopped", stop_reason: "failures", updated_at: settledAt } : {}),
        })
        .where("id", "=", autoTopup.id)
        .execute();
      await enqueueMail(trx, {
        dedupeKey: `auto-topup-declined:${row.id}:${attempt}`,
        to: autoTopup.email,
        template: "auto_topup_declined",
        data: { chargeId: row.id, attempt, stopped: stopping },
      });
      return true;
    });
    if (!moved) return "lost";
    logger.warn({
      msg: stopping
        ? "automatic top-up stopped after declined charges"
        : "automatic top-up declined",
      autoTopupId: autoTopup.id,
      attempt,
      reason: result.reason,
    });
    report.declined += 1;
    return stopping ? "stopped" : "declined";
  }

  /** Its line left the account (moved by an SMS code): the account's card no longer pays it. */
  async function stopForMovedLine(autoTopup: AutoTopup) {
    await db
      .updateTable("auto_topups")
      .set({ state: "stopped", stop_reason: "line_moved", updated_at: clock().toISOString() })
      .where("id", "=", autoTopup.id)
      .where("lease_owner", "=", owner)
      .execute();
    logger.info({
      msg: "automatic top-up stopped: line left the account",
      autoTopupId: autoTopup.id,
    });
  }

  async function work(row: AutoTopupsTable, report: AutoTopupRoundReport): Promise<void> {
    const autoTopup = toAutoTopup(row);
    if ((await accountOfLine(db, autoTopup.number)) !== autoTopup.accountSub) {
      await stopForMovedLine(autoTopup);
      report.stopped += 1;
      return;
    }
    const card = await findSavedCardById(db, autoTopup.savedCardId);
    // The card was removed (or belongs to another provider now): paused until another is chosen.
    if (
      !card ||
      card.accountSub !== autoTopup.accountSub ||
      card.provider !== payments.provider.name
    ) {
      return;
    }
    let line;
    try {
      line = await bss.findLine(autoTopup.number);
    } catch (error) {
      if (isBssRefused(error)) return;
      throw error;
    }
    if (!line) return;
    const now = clock();
    await settleAwaiting(autoTopup);
    report.skipped += await supersede(autoTopup, currentPeriod(line, now));
    const decision = decide(autoTopup, line, now);
    if (decision.kind === "none") return;
    if (await chargeInFlight(autoTopup)) return;
    const { row: chargeRow, created } = await chargeRowFor(
      autoTopup,
      decision.period,
      decision.kind === "notice" ? decision.chargeAt : now,
    );
    if (created) {
      report.noticed += 1;
      options.onMailQueued?.();
    }
    if (chargeRow.auto_topup_id !== autoTopup.id || decision.kind !== "charge") return;
    const due =
      chargeRow.state === "scheduled" ||
      (chargeRow.state === "retrying" && chargeRow.due_at <= now.toISOString());
    if (!due) return;
    const outcome = await charge(autoTopup, chargeRow, card, report);
    if (outcome === "paid") report.paid += 1;
    if (outcome === "awaiting_customer") report.awaitingCustomer += 1;
    if (outcome === "skipped") report.skipped += 1;
    if (outcome === "stopped") report.stopped += 1;
    if (outcome !== "lost") options.onMailQueued?.();
    logger.info({
      msg: "automatic top-up charge",
      autoTopupId: autoTopup.id,
      chargeId: chargeRow.id,
      outcome,
    });
  }

  function emptyReport(): AutoTopupRoundReport {
    return {
      checked: 0,
      noticed: 0,
      paid: 0,
      declined: 0,
      awaitingCustomer: 0,
      skipped: 0,
      stopped: 0,
      unavailable: false,
    };
  }

  /**
   * One batch: up to `limit` automatic top-ups not checked since `passStart`, the least recently
   * checked first (never checked: ""), so that every line gets its turn.
   */
  async function runBatch(
    limit: number,
    passStart: Date,
    report: AutoTopupRoundReport,
  ): Promise<number> {
    const since = passStart.toISOString();
    const ids = await db
      .selectFrom("auto_topups")
      .select("id")
      .where("state", "=", "active")
      .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", since)]))
      .where((eb) => eb.or([eb("checked_at", "is", null), eb("checked_at", "<", since)]))
      .orderBy((eb) => eb.fn.coalesce("checked_at", eb.val("")))
      .orderBy("id")
      .limit(Math.max(1, Math.trunc(limit)))
      .execute();
    await forEachConcurrently(ids, concurrency, async ({ id }) => {
      if (report.unavailable) return;
      const row = await claim(id, clock(), since);
      if (!row) return;
      let checked = true;
      try {
        report.checked += 1;
        await work(row, report);
      } catch (error) {
        checked = false;
        if (isBssUnavailable(error) || isPaymentProviderUnavailable(error)) {
          // Nothing decided: the same charge (its same key) is asked for at the next round.
          report.unavailable = true;
          logger.warn({ msg: "automatic top-ups round ended", reason: describe(error) });
          return;
        }
        logger.error({ msg: "automatic top-up failed", autoTopupId: id, reason: describe(error) });
      } finally {
        // Checked even when it failed for a bug: the pass goes on to the others.
        await release(id, checked || !report.unavailable).catch(() => undefined);
      }
    });
    return ids.length;
  }

  /**
   * A pass over every active automatic top-up, a batch at a time; the BSS or the provider out of
   * reach ends it (the rest wait for the next).
   */
  async function runRound(limit: number): Promise<AutoTopupRoundReport> {
    const passStart = clock();
    const report = emptyReport();
    for (;;) {
      const taken = await runBatch(limit, passStart, report);
      if (report.unavailable || taken < limit) break;
    }
    status.lastRoundAt = clock().toISOString();
    status.lastRoundError = report.unavailable ? "unavailable" : null;
    return report;
  }

  const rounds = createQueueRounds({
    round: async (limit) => {
      const report = await runRound(limit);
      if (report.unavailable) throw new RoundEnded("unavailable");
      // The pass went over every line: the next waits for the timer.
      return { claimed: 0 };
    },
    batchSize,
    onRoundFailed: (error) => {
      if (error instanceof RoundEnded) return;
      status.lastRoundError = describe(error);
      logger.warn({ msg: "automatic top-ups round failed", reason: describe(error) });
    },
  });

  return {
    runRound(limit = batchSize) {
      return rounds.track(runRound(limit));
    },
    start: rounds.start,
    stop: rounds.stop,
    status: () => ({ ...status }),
  };
}
