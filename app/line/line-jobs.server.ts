import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { Transaction } from "kysely";
import type { Db } from "~/db/db.server";
import type { Database, LineJobKind, LineJobState, LineSource } from "~/db/schema";
import {
  changedMeanwhile,
  cleanText,
  recordChange,
  refuse,
  type Refusal,
} from "~/audit/status-changes.server";
import { backoffDelay, createQueueRounds, forEachConcurrently } from "~/lib/queue-rounds.server";
import { type Bss, isBssRefused, isBssUnavailable } from "./bss";
import { isLineNumber } from "./line";
import { linkLine } from "./lines.server";

/**
 * Work for the BSS (table line_jobs): queued in the transaction that decided it — a top-up's
 * payment approved, a SIM installed or activated, a portability completed — and done by a
 * worker in every process, once. Each job is claimed with a conditional UPDATE and a lease
 * before the BSS is called (as the mail queue does, ~/mail/mailer.server.ts), and the BSS call
 * itself is idempotent by the job's reference, so a job run again after a lost answer or a
 * process that died changes nothing twice. The BSS out of reach: the job waits and is tried
 * again with backoff, never given up (a paid top-up is owed). The BSS says no: the job stays
 * `refused` for the operator to look at.
 */

type Executor = Db | Transaction<Database>;

/** A paid top-up to apply to its line: the amount's package (~/line/line.ts topupOffer). */
export interface ApplyTopupPayload {
  topupId: string;
  number: string;
  /** Whole pesos, IVA included. */
  amount: number;
  offerId: string;
}

/** A new line to activate, and the account it then belongs to (if any). */
export interface ActivateLinePayload {
  /** Our reference for the activation at the BSS (idempotency). */
  externalId: string;
  iccid: string;
  /** A plan id of ~/catalog/plans.data.ts. */
  offerId: string;
  /** The ported number, for a port-in; else the BSS assigns one. */
  number?: string;
  /** The account the new line joins; null: none (a guest's order). */
  accountSub: string | null;
  source: LineSource;
  sourceRef: string | null;
}

/** Whether a line has a registered holder now (issue 27, decision 0100), to tell the BSS. */
export interface RecordRegistrationPayload {
  number: string;
  /** The current registration's folio; null: the line has none (it is suspended). */
  folio: string | null;
}

export interface LineJobPayloads {
  "apply-topup": ApplyTopupPayload;
  "activate-line": ActivateLinePayload;
  "record-registration": RecordRegistrationPayload;
}

export interface LineJobResults {
  "apply-topup": { reference: string };
  "activate-line": { number: string };
  /** `superseded`: a later registration (or its loss) of the line was queued before this ran. */
  "record-registration": { superseded: boolean };
}

export type LineJob = {
  [K in LineJobKind]: {
    /** "topup:<top-up id>", "activation:<reference>": queuing the same id again is a no-op. */
    id: string;
    kind: K;
    payload: LineJobPayloads[K];
    now: Date;
  };
}[LineJobKind];

/** The job that applies a top-up. */
export function topupJobId(topupId: string): string {
  return `topup:${topupId}`;
}

/** The job that activates a line for our reference (an order's SIM, a portability request). */
export function activationJobId(reference: string): string {
  return `activation:${reference}`;
}

const REGISTRATION_JOB_PREFIX = "registration:";

/**
 * The job that tells the BSS of a line's registration: one per folio, and one per moment a line
 * is found to have none (each such finding is news to tell).
 */
export function registrationJobId(input: { number: string; folio: string | null; now: Date }) {
  const what = input.folio ?? `none:${input.now.toISOString()}`;
  return `${REGISTRATION_JOB_PREFIX}${input.number}:${what}`;
}

/**
 * How logs name a job: its id holds a top-up's or an order's unguessable reference (the key to a
 * receipt), so only a digest of it is written. `npm run ops` shows the same digest.
 */
export function lineJobLogRef(id: string): string {
  return `lj_${createHash("sha256").update(id).digest("base64url").slice(0, 12)}`;
}

/**
 * Queues a job in the caller's transaction, so that it exists exactly when what decided it does.
 * A job with this id already queued (in whatever state) is left as it is: answers whether it is new.
 */
export async function queueLineJob(db: Executor, job: LineJob): Promise<boolean> {
  const at = job.now.toISOString();
  const result = await db
    .insertInto("line_jobs")
    .values({
      id: job.id,
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      state: "pending",
      attempts: 0,
      next_attempt_at: at,
      last_error: null,
      result: null,
      created_at: at,
      done_at: null,
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Queues, in the caller's transaction (the one that made the registration, or found the line has
 * none), the call that tells the BSS: a folio lifts "sin registro", null suspends an active line.
 * Retried while the BSS is out of reach, as a paid top-up is. Only the latest news of a line
 * counts: any earlier such job of the line still waiting is settled as superseded here, so that
 * an older one retried later can never undo a newer one. Answers the job's id (for
 * `LineJobs.runNow`).
 */
export async function queueRegistrationAtBss(
  executor: Executor,
  input: { number: string; folio: string | null; now: Date },
): Promise<string> {
  if (!isLineNumber(input.number)) throw new TypeError("a line number is ten digits");
  const id = registrationJobId(input);
  const at = input.now.toISOString();
  await executor
    .updateTable("line_jobs")
    .set({
      state: "done",
      result: JSON.stringify({ superseded: true }),
      last_error: null,
      done_at: at,
    })
    .where("kind", "=", "record-registration")
    .where("state", "=", "pending")
    .where("id", "like", `${REGISTRATION_JOB_PREFIX}${input.number}:%`)
    .where("id", "!=", id)
    .execute();
  await queueLineJob(executor, {
    id,
    kind: "record-registration",
    payload: { number: input.number, folio: input.folio },
    now: input.now,
  });
  return id;
}

export type LineJobOutcome = {
  [K in LineJobKind]:
    | { kind: K; state: "pending"; attempts: number; createdAt: string }
    | { kind: K; state: "done"; result: LineJobResults[K]; doneAt: string }
    /** `reason`: the BSS's (a BssRefusalReason), or "malformed" for a job that cannot be read. */
    | { kind: K; state: "refused"; reason: string; doneAt: string | null };
}[LineJobKind];

/** Where a job stands: null when no such job was queued. */
export async function lineJobOutcome(db: Executor, id: string): Promise<LineJobOutcome | null> {
  const row = await db
    .selectFrom("line_jobs")
    .select(["kind", "state", "attempts", "result", "last_error", "created_at", "done_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  switch (row.state) {
    case "done":
      return {
        kind: row.kind,
        state: "done",
        result: JSON.parse(row.result ?? "{}") as never,
        doneAt: row.done_at ?? row.created_at,
      };
    case "refused":
      return {
        kind: row.kind,
        state: "refused",
        reason: refusalReason(row.last_error),
        doneAt: row.done_at,
      };
    default:
      return {
        kind: row.kind,
        state: "pending",
        attempts: Number(row.attempts),
        createdAt: row.created_at,
      };
  }
}

/** A job's reference as logs and `npm run ops` show it ("lj_" and 12 characters of its digest). */
export const LINE_JOB_REF_PATTERN = /^lj_[\w-]{12}$/;

export interface RefusedJobRetried {
  ok: true;
  /** The job's reference (lineJobLogRef). */
  ref: string;
  kind: LineJobKind;
  /** What the BSS had said ("refused: <reason> [<HTTP status>] [<code>]"). */
  refusal: string | null;
  reason: string | null;
  actor: string;
  changedAt: string;
}

const STATE_NAMES: Record<LineJobState, string> = {
  pending: "en cola",
  done: "hecho",
  refused: "rechazado",
};

/**
 * The operator's retry (`npm run ops -- reintentar <ref>`): a job the BSS refused goes back to
 * pending, due now, with its attempts counted from zero, once the operator fixed the cause at
 * the BSS. Audited (status_changes, subject `line_job`) in the transaction that changes it.
 * Running it again is safe: the BSS call is idempotent by the top-up's id or the activation's
 * reference (decision 0090). The job is named by its reference, a digest of its id: the id holds
 * a receipt's or an order's secret key.
 */
export async function retryRefusedLineJob(
  db: Db,
  ref: string,
  input: { actor: string; reason?: string | null; now: Date },
): Promise<RefusedJobRetried | Refusal> {
  const trimmed = ref.trim();
  if (!LINE_JOB_REF_PATTERN.test(trimmed)) {
    return refuse(
      "invalid_input",
      `"${trimmed}" no es una referencia de trabajo del BSS (lj_ y 12 caracteres; la muestra npm run ops -- trabajos).`,
    );
  }
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  // The refused are few: looked through first; the rest only to tell why this one is not there.
  let job = await findJobByRef(db, trimmed, "refused");
  if (!job) {
    job = await findJobByRef(db, trimmed, null);
    if (!job)
      return refuse("not_found", `No existe ningún trabajo del BSS con la referencia ${trimmed}.`);
    return refuse(
      "wrong_status",
      `El trabajo ${trimmed} está ${STATE_NAMES[job.state]}, no rechazado: solo se reintenta uno que el BSS rechazó.`,
    );
  }
  const found = job;
  const at = input.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("line_jobs")
      .set({ state: "pending", attempts: 0, next_attempt_at: at, last_error: null, done_at: null })
      .where("id", "=", found.id)
      .where("state", "=", "refused")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return changedMeanwhile(trimmed);
    const { changedAt } = await recordChange(
      trx,
      {
        subject: "line_job",
        id: found.id,
        fromStatus: "refused",
        toStatus: "pending",
        detail: { kind: found.kind, ...(found.last_error ? { refusal: found.last_error } : {}) },
        reason: reason.value,
        actor: input.actor,
      },
      at,
    );
    return {
      ok: true,
      ref: trimmed,
      kind: found.kind,
      refusal: found.last_error,
      reason: reason.value,
      actor: input.actor,
      changedAt,
    };
  });
}

async function findJobByRef(db: Db, ref: string, state: LineJobState | null) {
  let query = db.selectFrom("line_jobs").select(["id", "kind", "state", "last_error"]);
  if (state) query = query.where("state", "=", state);
  const rows = await query.execute();
  return rows.find((row) => lineJobLogRef(row.id) === ref) ?? null;
}

/** After the 1st, 2nd… failed attempt, then every further one: 5 s, 15 s, 1 min, 5 min, 15 min, 30 min. */
export const LINE_JOB_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  15_000,
  60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
];
/**
 * How long a claimed job is left alone by the other workers: longer than any BSS call can take
 * (a product order polled to its end takes a few timeouts of at most 30 s), so a job is worked by
 * one worker at a time; if this process dies mid-call it is tried again after.
 */
export const LINE_JOB_LEASE_MS = 5 * 60_000;
const DEFAULT_BATCH = 20;
const DEFAULT_CONCURRENCY = 4;
const REFUSED_PREFIX = "refused:";

/** A line the BSS just activated, as its activation job knows it. */
export interface ActivatedLine {
  number: string;
  source: LineSource;
  sourceRef: string | null;
  accountSub: string | null;
  now: Date;
}

/**
 * What else follows from a line's activation, given by the server's composition (the line's
 * registration to its holder, app/registration, decision 0101): `inTransaction` in the
 * transaction that records the activation, `afterCommit` once it is committed.
 */
export interface LineActivationFollowUp {
  inTransaction(trx: Transaction<Database>, line: ActivatedLine): Promise<unknown>;
  afterCommit(): void;
}

export interface LineJobsOptions {
  db: Db;
  bss: Bss;
  onActivated?: LineActivationFollowUp;
  logger: Pick<Logger, "info" | "warn" | "error">;
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  claimLeaseMs?: number;
  /** How many jobs one background round claims (rounds follow each other while full). */
  batchSize?: number;
  /** How many BSS calls are under way at once. */
  concurrency?: number;
}

export interface LineJobsReport {
  /** Jobs this call claimed (others may have been claimed by a concurrent call). */
  claimed: number;
  done: number;
  /** Not done this time (the BSS out of reach), to be tried again. */
  retrying: number;
  refused: number;
}

export interface LineJobsStats {
  pending: number;
  /** Refused by the BSS: each waits for the operator. */
  refused: number;
  /** How long the oldest job still to be done has been waiting; 0 when none. */
  oldestPendingSeconds: number;
}

export interface LineJobs {
  /** Does the jobs that are due, at most `limit`; safe to run in several places at once. */
  runDue(limit?: number): Promise<LineJobsReport>;
  /** Runs every `intervalMs` in the background (an unref'd timer), starting now. */
  start(intervalMs: number): void;
  /** No more rounds; resolves when the BSS calls under way are done. */
  stop(): Promise<void>;
  /** Runs soon (after a job was queued) without waiting for the interval. */
  nudge(): void;
  /**
   * Works this one job now, when it is waiting and due (a customer is waiting for it: an online
   * registration lifts the suspension before its receipt shows), and answers where it stands.
   * The BSS out of reach leaves it to the queue's retries, as any attempt; never throws for it.
   */
  runNow(id: string): Promise<LineJobOutcome | null>;
  /** For /readyz and the operator. */
  stats(): Promise<LineJobsStats>;
}

interface DueRow {
  id: string;
  kind: LineJobKind;
  payload: string;
  attempts: number;
  next_attempt_at: string;
}

type Settled = "done" | "retrying" | "refused" | "lost";

const SAFE_WORD = /^[\w.-]{1,40}$/;

/** What a failure stores and logs: its kind and reason, never its message (it may quote a number). */
function describeFailure(error: unknown): string {
  if (isBssUnavailable(error)) {
    return `unavailable: ${error.reason}${error.httpStatus ? ` ${error.httpStatus}` : ""}`;
  }
  if (isBssRefused(error)) {
    const code = error.detail?.code && SAFE_WORD.test(error.detail.code) ? error.detail.code : null;
    return [`${REFUSED_PREFIX} ${error.reason}`, error.httpStatus, code]
      .filter((part) => part !== null)
      .join(" ");
  }
  const fields = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof fields.code === "string" && SAFE_WORD.test(fields.code)) return `error ${fields.code}`;
  return typeof fields.name === "string" && SAFE_WORD.test(fields.name)
    ? `error ${fields.name}`
    : "error";
}

/** "refused: unknown-number 404 …" → "unknown-number". */
function refusalReason(lastError: string | null): string {
  const match = /^refused: ([\w-]+)/.exec(lastError ?? "");
  return match ? match[1] : "rejected";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const LINE_SOURCES: readonly LineSource[] = ["esim", "sim", "portability", "added"];

/** The payload, read back as queued; null for one that cannot be what was queued. */
function readPayload<K extends LineJobKind>(kind: K, text: string): LineJobPayloads[K] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  if (kind === "apply-topup") {
    const ok =
      isText(value.topupId) &&
      isLineNumber(value.number) &&
      Number.isInteger(value.amount) &&
      isText(value.offerId);
    return ok ? (value as unknown as LineJobPayloads[K]) : null;
  }
  if (kind === "record-registration") {
    const ok = isLineNumber(value.number) && (value.folio === null || isText(value.folio));
    return ok ? (value as unknown as LineJobPayloads[K]) : null;
  }
  const ok =
    isText(value.externalId) &&
    isText(value.iccid) &&
    isText(value.offerId) &&
    (value.number === undefined || isLineNumber(value.number)) &&
    (value.accountSub === null || isText(value.accountSub)) &&
    LINE_SOURCES.includes(value.source as LineSource) &&
    (value.sourceRef === null || typeof value.sourceRef === "string");
  return ok ? (value as unknown as LineJobPayloads[K]) : null;
}

export function createLineJobs(options: LineJobsOptions): LineJobs {
  const { db, bss, logger } = options;
  const clock = options.now ?? (() => new Date());
  const delays = options.retryDelaysMs ?? LINE_JOB_RETRY_DELAYS_MS;
  const lease = options.claimLeaseMs ?? LINE_JOB_LEASE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const later = (ms: number) => new Date(clock().getTime() + ms).toISOString();

  /** Takes the job for this attempt; false when another worker took it first. */
  async function claim(row: DueRow): Promise<boolean> {
    const result = await db
      .updateTable("line_jobs")
      .set({ attempts: row.attempts + 1, next_attempt_at: later(lease) })
      .where("id", "=", row.id)
      .where("state", "=", "pending")
      .where("attempts", "=", row.attempts)
      .where("next_attempt_at", "=", row.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes the attempt's outcome, if the claim still holds (it does unless the lease ran out). */
  async function settle(
    executor: Executor,
    row: DueRow,
    attempt: number,
    values: {
      state: LineJobState;
      next_attempt_at?: string;
      last_error: string | null;
      result?: string;
      done_at?: string;
    },
  ): Promise<boolean> {
    const result = await executor
      .updateTable("line_jobs")
      .set(values)
      .where("id", "=", row.id)
      .where("state", "=", "pending")
      .where("attempts", "=", attempt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function refuse(row: DueRow, attempt: number, error: string): Promise<Settled> {
    await settle(db, row, attempt, {
      state: "refused",
      last_error: error,
      done_at: clock().toISOString(),
    });
    // For the operator: what was refused and why; the job's digest, never a number or a reference.
    logger.error({
      msg: "line job refused by the BSS",
      jobRef: lineJobLogRef(row.id),
      kind: row.kind,
      attempt,
      reason: refusalReason(error),
      error,
    });
    return "refused";
  }

  async function retryLater(row: DueRow, attempt: number, error: string): Promise<Settled> {
    const delayMs = backoffDelay(delays, attempt);
    await settle(db, row, attempt, {
      state: "pending",
      next_attempt_at: later(delayMs),
      last_error: error,
    });
    logger.warn({
      msg: "line job not done, will retry",
      jobRef: lineJobLogRef(row.id),
      kind: row.kind,
      attempt,
      retryInSeconds: Math.round(delayMs / 1000),
      error,
    });
    return "retrying";
  }

  /** The BSS call; then, in one transaction, the job done and what follows from it. */
  async function work(row: DueRow, attempt: number): Promise<boolean> {
    if (row.kind === "apply-topup") {
      const payload = readPayload("apply-topup", row.payload)!;
      const { reference } = await bss.applyTopup({
        topupId: payload.topupId,
        number: payload.number,
        amount: payload.amount,
        offerId: payload.offerId,
      });
      return settle(db, row, attempt, {
        state: "done",
        last_error: null,
        result: JSON.stringify({ reference }),
        done_at: clock().toISOString(),
      });
    }
    if (row.kind === "record-registration") {
      const payload = readPayload("record-registration", row.payload)!;
      await bss.recordRegistration({ number: payload.number, folio: payload.folio });
      return settle(db, row, attempt, {
        state: "done",
        last_error: null,
        result: JSON.stringify({ superseded: false }),
        done_at: clock().toISOString(),
      });
    }
    const payload = readPayload("activate-line", row.payload)!;
    const { number } = await bss.activateLine({
      externalId: payload.externalId,
      iccid: payload.iccid,
      offerId: payload.offerId,
      ...(payload.number ? { number: payload.number } : {}),
    });
    const at = clock();
    const held = await db.transaction().execute(async (trx) => {
      const held = await settle(trx, row, attempt, {
        state: "done",
        last_error: null,
        result: JSON.stringify({ number }),
        done_at: at.toISOString(),
      });
      if (!held) return held;
      await options.onActivated?.inTransaction(trx, {
        number,
        source: payload.source,
        sourceRef: payload.sourceRef,
        accountSub: payload.accountSub,
        now: at,
      });
      if (payload.accountSub === null) return held;
      const link = await linkLine(trx, {
        number,
        accountSub: payload.accountSub,
        source: payload.source,
        sourceRef: payload.sourceRef,
        now: at,
      });
      if (!link.linked) {
        // The number is in another account (added there by SMS code): it stays there.
        logger.warn({
          msg: "activated line already in another account",
          jobRef: lineJobLogRef(row.id),
        });
      }
      return held;
    });
    if (held) options.onActivated?.afterCommit();
    return held;
  }

  async function attemptOne(row: DueRow): Promise<Settled> {
    if (!(await claim(row))) return "lost";
    const attempt = row.attempts + 1;
    if (readPayload(row.kind, row.payload) === null) {
      return refuse(row, attempt, `${REFUSED_PREFIX} malformed`);
    }
    let held: boolean;
    try {
      held = await work(row, attempt);
    } catch (error) {
      if (isBssRefused(error)) return refuse(row, attempt, describeFailure(error));
      if (!isBssUnavailable(error)) {
        // Not the BSS's answer (a database error after the call, a bug): the call is idempotent,
        // so trying again is safe; the operator is told louder.
        logger.error({
          msg: "line job failed unexpectedly",
          jobRef: lineJobLogRef(row.id),
          kind: row.kind,
          error: describeFailure(error),
        });
      }
      return retryLater(row, attempt, describeFailure(error));
    }
    if (!held) return "lost";
    logger.info({ msg: "line job done", jobRef: lineJobLogRef(row.id), kind: row.kind, attempt });
    return "done";
  }

  async function runDue(limit: number): Promise<LineJobsReport> {
    const due: DueRow[] = await db
      .selectFrom("line_jobs")
      .select(["id", "kind", "payload", "attempts", "next_attempt_at"])
      .where("state", "=", "pending")
      .where("next_attempt_at", "<=", clock().toISOString())
      .orderBy("next_attempt_at")
      .orderBy("created_at")
      .limit(Math.max(1, Math.trunc(limit)))
      .execute();
    const report: LineJobsReport = { claimed: 0, done: 0, retrying: 0, refused: 0 };
    await forEachConcurrently(due, concurrency, async (row) => {
      try {
        const outcome = await attemptOne(row);
        if (outcome === "lost") return;
        report.claimed += 1;
        report[outcome] += 1;
      } catch (error) {
        // The database failed us mid-attempt: the claim's lease brings the job back later.
        logger.warn({
          msg: "line job attempt interrupted",
          jobRef: lineJobLogRef(row.id),
          kind: row.kind,
          error: describeFailure(error),
        });
      }
    });
    return report;
  }

  const rounds = createQueueRounds({
    round: runDue,
    batchSize,
    onRoundFailed: (error) =>
      logger.warn({ msg: "line jobs round failed", error: describeFailure(error) }),
  });

  return {
    runDue(limit = batchSize) {
      return rounds.track(runDue(limit));
    },
    start: rounds.start,
    stop: rounds.stop,
    nudge: rounds.nudge,

    runNow(id) {
      return rounds.track(
        (async () => {
          const row = await db
            .selectFrom("line_jobs")
            .select(["id", "kind", "payload", "attempts", "next_attempt_at"])
            .where("id", "=", id)
            .where("state", "=", "pending")
            .where("next_attempt_at", "<=", clock().toISOString())
            .executeTakeFirst();
          if (row) {
            try {
              await attemptOne({ ...row, attempts: Number(row.attempts) });
            } catch (error) {
              // The database failed us mid-attempt: the claim's lease brings the job back later.
              logger.warn({
                msg: "line job attempt interrupted",
                jobRef: lineJobLogRef(row.id),
                kind: row.kind,
                error: describeFailure(error),
              });
            }
          }
          return lineJobOutcome(db, id);
        })(),
      );
    },

    async stats() {
      const rows = await db
        .selectFrom("line_jobs")
        .select((eb) => [
          "state",
          eb.fn.countAll<number>().as("count"),
          eb.fn.min("created_at").as("oldest"),
        ])
        .where("state", "in", ["pending", "refused"])
        .groupBy("state")
        .execute();
      const pending = rows.find((row) => row.state === "pending");
      const refused = rows.find((row) => row.state === "refused");
      const oldest = pending?.oldest ? Date.parse(String(pending.oldest)) : NaN;
      return {
        pending: Number(pending?.count ?? 0),
        refused: Number(refused?.count ?? 0),
        oldestPendingSeconds: Number.isNaN(oldest)
          ? 0
          : Math.max(0, Math.floor((clock().getTime() - oldest) / 1000)),
      };
    },
  };
}
