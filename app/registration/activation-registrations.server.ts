import type { Transaction } from "kysely";
import type { Logger } from "pino";
import type { Db } from "~/db/db.server";
import type {
  Database,
  PendingRegistrationSource,
  PendingRegistrationState,
  PendingRegistrationsTable,
} from "~/db/schema";
import { assertLineNumber } from "~/line/bss";
import { queueRegistrationAtBss, type ActivatedLine } from "~/line/line-jobs.server";
import { backoffDelay, createQueueRounds, forEachConcurrently } from "~/lib/queue-rounds.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import type { SmsSender } from "~/sms/sender";
import { sendSmsNotices } from "./registration-notice-sms.server";
import { PORT_IN_IDENTIFICATION, portInHolderSchema } from "./holder";
import { isIdValidationUnavailable, validationRequestOf, type IdValidator } from "./id-validation";
import {
  currentRegistration,
  recordValidationAttempt,
  registerLine,
  type RegistrationChannel,
  type RegistrationKeys,
} from "./registrations.server";
import { REGISTRATION_GIVE_UP_MS, type OrderHolderProof } from "./holder-proof";
import { openOrderHolder, orderHolderProof, orderOfPortIn } from "./order-holders.server";

/**
 * The registration of the lines the store activates (issue 27, decision 0101). The holder an
 * order names at checkout is kept, sealed, until its lines are registered; each line an
 * activation brings is then registered to it (or, for a port-in, to the name and CURP the request
 * was made with) with its own folio. Until the identity validation answers, the line is
 * "pendiente de registro" and tried again with backoff; a refusal, or no answer for
 * REGISTRATION_GIVE_UP_MS, leaves it "suspendida" (without a registration): its customer finishes
 * it at /registro-de-linea. Nothing here ever undoes a paid purchase or an activation.
 */

type Executor = Db | Transaction<Database>;

/** After the 1st, 2nd… unanswered validation, then every further one. */
export const REGISTRATION_RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
  3 * 60 * 60_000,
];
const CLAIM_LEASE_MS = 2 * 60_000;
const DEFAULT_BATCH = 20;
const DEFAULT_CONCURRENCY = 2;

/** Why a line was left without registration (stored and shown to the operator; nothing personal). */
export type SuspensionReason =
  | "not-found"
  | "name-mismatch"
  | "deceased"
  /** Only online registration sends the evidence, but a service may answer so regardless. */
  | "document-mismatch"
  | "selfie-not-live"
  | "line-limit"
  /** The validation service did not answer within REGISTRATION_GIVE_UP_MS. */
  | "unavailable"
  /** No holder to register it to (an order placed before checkout asked), or one unreadable. */
  | "no-holder"
  /**
   * The order's holder did not show their identification (decision 0139): refused three times,
   * or not sent within REGISTRATION_GIVE_UP_MS of the activation.
   */
  | "holder-unproved";

/** A waiting line's reason while its order's holder has not shown their identification. */
const AWAITING_HOLDER = "holder-unproved";

async function portInHolder(db: Executor, requestId: string) {
  const row = await db
    .selectFrom("portability_requests")
    .select(["full_name", "curp"])
    .where("id", "=", requestId)
    .executeTakeFirst();
  if (!row) return null;
  const parsed = portInHolderSchema.safeParse({
    holder_kind: "fisica",
    full_name: row.full_name,
    curp: row.curp,
    identification_type: PORT_IN_IDENTIFICATION,
  });
  return parsed.success ? parsed.data : null;
}

// ---------------------------------------------------------------------------------------------
// A line activated

function pendingSourceOf(
  line: ActivatedLine,
): { source: PendingRegistrationSource; ref: string } | null {
  if (!line.sourceRef) return null;
  if (line.source === "esim" || line.source === "sim") {
    return { source: "order", ref: line.sourceRef.split(":")[0] };
  }
  if (line.source === "portability") return { source: "portability", ref: line.sourceRef };
  return null;
}

/**
 * In the activation's transaction: the line waits for its registration ("pendiente de
 * registro"), due at once. A line the store sold before checkout asked for a holder has none to
 * be registered to: it is left without registration at once. Answers whether a registration is
 * now to be tried (the caller nudges the worker after its transaction).
 */
export async function awaitRegistration(
  trx: Executor,
  line: ActivatedLine,
): Promise<"pending" | "suspended" | "none"> {
  assertLineNumber(line.number);
  const from = pendingSourceOf(line);
  if (!from) return "none";
  const at = line.now.toISOString();
  const hasHolder =
    from.source === "portability" ||
    (await trx
      .selectFrom("order_holders")
      .select("id")
      .where("order_ref", "=", from.ref)
      .executeTakeFirst()) !== undefined;
  const state: PendingRegistrationState = hasHolder ? "pending" : "suspended";
  const row: PendingRegistrationsTable = {
    number: line.number,
    source: from.source,
    source_ref: from.ref,
    account_sub: line.accountSub,
    state,
    reason: hasHolder ? null : "no-holder",
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  };
  await trx
    .insertInto("pending_registrations")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("number").doUpdateSet({
        source: row.source,
        source_ref: row.source_ref,
        account_sub: row.account_sub,
        state: row.state,
        reason: row.reason,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      }),
    )
    .execute();
  // No holder to register it to (an order from before checkout asked): suspended at the BSS now.
  if (!hasHolder)
    await queueRegistrationAtBss(trx, { number: line.number, folio: null, now: line.now });
  return state;
}

// ---------------------------------------------------------------------------------------------
// What pages and the operator see

/** A line's registration as its customer sees it: its folio, or still to be done. */
export type LineRegistrationView =
  | { state: "registered"; folio: string; registeredAt: string }
  /** Its first try is under way (a page looks again by itself). */
  | { state: "registering" }
  /** Waits for its order's holder to show their identification (decision 0139). */
  | { state: "awaiting-holder"; orderRef: string }
  /** The validation service did not answer: tried again later. */
  | { state: "pending" }
  /** Left without one: the customer registers it at /registro-de-linea. */
  | { state: "suspended" };

/**
 * Where a line's registration stands: its current registration, else waiting for it (pending or
 * suspended); null for a line the store knows nothing of (nothing to show).
 */
export async function lineRegistrationView(
  db: Executor,
  number: string,
): Promise<LineRegistrationView | null> {
  const current = await currentRegistration(db, number);
  if (current) {
    return { state: "registered", folio: current.folio, registeredAt: current.registeredAt };
  }
  const waiting = await db
    .selectFrom("pending_registrations")
    .select(["state", "attempts", "reason", "source", "source_ref"])
    .where("number", "=", number)
    .executeTakeFirst();
  if (!waiting) return null;
  if (waiting.state === "suspended") return { state: "suspended" };
  if (waiting.reason === AWAITING_HOLDER) {
    const orderRef =
      waiting.source === "order" ? waiting.source_ref : await orderOfPortIn(db, waiting.source_ref);
    if (orderRef) return { state: "awaiting-holder", orderRef };
  }
  // Not tried yet, or its first try under way: no answer has been missed so far.
  return Number(waiting.attempts) <= 1 && waiting.reason === null
    ? { state: "registering" }
    : { state: "pending" };
}

export interface WaitingLine {
  number: string;
  state: PendingRegistrationState;
  source: PendingRegistrationSource;
  reason: string | null;
  attempts: number;
  since: string;
  nextAttemptAt: string | null;
}

/**
 * The lines waiting for their registration ("pending") or left without one ("suspended"), oldest
 * first; a suspended line its customer registered since (online, in a store) is not listed.
 */
export async function listWaitingLines(
  db: Executor,
  state: PendingRegistrationState,
): Promise<WaitingLine[]> {
  const rows = await db
    .selectFrom("pending_registrations as waiting")
    .leftJoin("registrations as current", (join) =>
      join.onRef("current.number", "=", "waiting.number").on("current.replaced_at", "is", null),
    )
    .select([
      "waiting.number",
      "waiting.state",
      "waiting.source",
      "waiting.reason",
      "waiting.attempts",
      "waiting.created_at",
      "waiting.next_attempt_at",
    ])
    .where("waiting.state", "=", state)
    .where("current.id", "is", null)
    .orderBy("waiting.created_at")
    .orderBy("waiting.number")
    .execute();
  return rows.map((row) => ({
    number: row.number,
    state: row.state,
    source: row.source,
    reason: row.reason,
    attempts: Number(row.attempts),
    since: row.created_at,
    nextAttemptAt: row.state === "pending" ? row.next_attempt_at : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// The worker

export interface ActivationRegistrationsOptions {
  db: Db;
  keys: RegistrationKeys;
  idValidator: IdValidator;
  logger: Pick<Logger, "info" | "warn" | "error">;
  now?: () => Date;
  retryDelaysMs?: readonly number[];
  giveUpAfterMs?: number;
  batchSize?: number;
  /** After an e-mail was queued (the folio to the order's or the request's e-mail). */
  onMailQueued?: () => void;
  /** Tells the lines a person already had of a new one (decision 0136); none without it. */
  smsNotices?: { sms: SmsSender; publicOrigin: string };
}

export interface ActivationRegistrationsReport {
  claimed: number;
  registered: number;
  retrying: number;
  suspended: number;
}

export interface ActivationRegistrations {
  runDue(limit?: number): Promise<ActivationRegistrationsReport>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
  nudge(): void;
}

type Settled = "registered" | "retrying" | "suspended" | "lost";

const CHANNELS: Record<PendingRegistrationSource, RegistrationChannel> = {
  order: "checkout",
  portability: "portability",
};

export function createActivationRegistrations(
  options: ActivationRegistrationsOptions,
): ActivationRegistrations {
  const { db, keys, idValidator, logger } = options;
  const clock = options.now ?? (() => new Date());
  const delays = options.retryDelaysMs ?? REGISTRATION_RETRY_DELAYS_MS;
  const giveUpAfterMs = options.giveUpAfterMs ?? REGISTRATION_GIVE_UP_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;

  async function claim(row: PendingRegistrationsTable): Promise<boolean> {
    const result = await db
      .updateTable("pending_registrations")
      .set({
        attempts: Number(row.attempts) + 1,
        next_attempt_at: new Date(clock().getTime() + CLAIM_LEASE_MS).toISOString(),
      })
      .where("number", "=", row.number)
      .where("state", "=", "pending")
      .where("attempts", "=", row.attempts)
      .where("next_attempt_at", "=", row.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** One of the order's lines is settled: its holder goes when none is left to register. */
  async function lineSettled(trx: Transaction<Database>, row: PendingRegistrationsTable) {
    if (row.source !== "order") return;
    await trx
      .updateTable("order_holders")
      .set((eb) => ({ lines_left: eb("lines_left", "-", 1) }))
      .where("order_ref", "=", row.source_ref)
      .execute();
    await trx
      .deleteFrom("order_holders")
      .where("order_ref", "=", row.source_ref)
      .where("lines_left", "<=", 0)
      .execute();
  }

  async function registered(
    row: PendingRegistrationsTable,
    attempt: number,
    registration: { id: string; folio: string },
    mailTo: string | null,
  ): Promise<Settled> {
    const held = await db.transaction().execute(async (trx) => {
      // Only while the claim holds (its lease not run out and taken by another worker).
      const deleted = await trx
        .deleteFrom("pending_registrations")
        .where("number", "=", row.number)
        .where("state", "=", "pending")
        .where("attempts", "=", attempt)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) return false;
      await lineSettled(trx, row);
      if (mailTo) {
        await enqueueMail(trx, {
          dedupeKey: `line-registered:${registration.id}:${mailTo.toLowerCase()}`,
          to: mailTo,
          template: "line_registered",
          data: { registrationId: registration.id },
        });
      }
      // The BSS hears of the folio from registerLine's own transaction.
      return true;
    });
    if (!held) return "lost";
    if (mailTo) options.onMailQueued?.();
    logger.info({
      msg: "activated line registered",
      folio: registration.folio,
      channel: CHANNELS[row.source],
      attempt,
    });
    return "registered";
  }

  async function suspend(
    row: PendingRegistrationsTable,
    attempt: number,
    reason: SuspensionReason,
  ): Promise<Settled> {
    const now = clock();
    const held = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("pending_registrations")
        .set({ state: "suspended", reason, updated_at: now.toISOString() })
        .where("number", "=", row.number)
        .where("state", "=", "pending")
        .where("attempts", "=", attempt)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      await lineSettled(trx, row);
      await queueRegistrationAtBss(trx, { number: row.number, folio: null, now });
      return true;
    });
    if (!held) return "lost";
    logger.warn({
      msg: "activated line left without registration",
      reason,
      channel: CHANNELS[row.source],
      attempt,
    });
    return "suspended";
  }

  async function retryLater(
    row: PendingRegistrationsTable,
    attempt: number,
    reason: "unavailable" | typeof AWAITING_HOLDER,
  ): Promise<Settled> {
    const now = clock();
    if (now.getTime() - Date.parse(row.created_at) >= giveUpAfterMs) {
      return suspend(row, attempt, reason);
    }
    const delayMs = backoffDelay(delays, attempt);
    await db
      .updateTable("pending_registrations")
      .set({
        reason,
        next_attempt_at: new Date(now.getTime() + delayMs).toISOString(),
        updated_at: now.toISOString(),
      })
      .where("number", "=", row.number)
      .where("state", "=", "pending")
      .where("attempts", "=", attempt)
      .execute();
    // Waiting for the customer to show the holder's identification is the usual course, not a fault.
    const log = reason === AWAITING_HOLDER ? logger.info : logger.warn;
    log.call(logger, {
      msg: "activated line registration will retry",
      reason,
      channel: CHANNELS[row.source],
      attempt,
      retryInSeconds: Math.round(delayMs / 1000),
    });
    return "retrying";
  }

  async function proofToWaitFor(row: PendingRegistrationsTable): Promise<OrderHolderProof | null> {
    const orderRef =
      row.source === "order" ? row.source_ref : await orderOfPortIn(db, row.source_ref);
    return orderRef ? orderHolderProof(db, orderRef) : null;
  }

  async function holderAndMail(row: PendingRegistrationsTable) {
    if (row.source === "portability") {
      const holder = await portInHolder(db, row.source_ref);
      const request = await db
        .selectFrom("portability_requests")
        .select("email")
        .where("id", "=", row.source_ref)
        .executeTakeFirst();
      return { holder, mailTo: request?.email ?? null };
    }
    const holder = (await openOrderHolder(db, keys, row.source_ref))?.holder ?? null;
    const order = await db
      .selectFrom("orders")
      .select("email")
      .where("id", "=", row.source_ref)
      .executeTakeFirst();
    return { holder, mailTo: order?.email ?? null };
  }

  async function attemptOne(row: PendingRegistrationsTable): Promise<Settled> {
    if (!(await claim(row))) return "lost";
    const attempt = Number(row.attempts) + 1;
    // Registered meanwhile by its customer (online, in a store): nothing left to do here.
    const current = await currentRegistration(db, row.number);
    if (current && current.registeredAt >= row.created_at) {
      return registered(row, attempt, current, null);
    }
    const { holder, mailTo } = await holderAndMail(row);
    if (!holder) return suspend(row, attempt, "no-holder");
    // The order's holder shows their identification first (decision 0139); a port-in filed on its
    // own, proved by the donor's NIP, has no order to wait for.
    const proof = await proofToWaitFor(row);
    if (proof?.state === "ended") return suspend(row, attempt, AWAITING_HOLDER);
    if (proof?.state === "to-prove") return retryLater(row, attempt, AWAITING_HOLDER);
    let validation;
    try {
      validation = await idValidator.validate(validationRequestOf(holder));
    } catch (error) {
      if (!isIdValidationUnavailable(error)) throw error;
      return retryLater(row, attempt, "unavailable");
    }
    const channel = CHANNELS[row.source];
    const now = clock();
    await recordValidationAttempt(db, {
      number: row.number,
      outcome: validation.outcome,
      channel,
      now,
    });
    if (validation.outcome !== "valid") return suspend(row, attempt, validation.outcome);
    const outcome = await registerLine(db, keys, {
      number: row.number,
      holder,
      validation: { ...validation, outcome: "valid" },
      channel,
      accountSub: row.account_sub,
      now,
    });
    if (outcome.kind === "line-limit") return suspend(row, attempt, "line-limit");
    if (options.smsNotices) {
      await sendSmsNotices({ ...options.smsNotices, logger }, outcome.smsNotices);
    }
    return registered(row, attempt, outcome.registration, mailTo);
  }

  async function runDue(limit: number): Promise<ActivationRegistrationsReport> {
    const due = await db
      .selectFrom("pending_registrations")
      .selectAll()
      .where("state", "=", "pending")
      .where("next_attempt_at", "<=", clock().toISOString())
      .orderBy("next_attempt_at")
      .limit(Math.max(1, Math.trunc(limit)))
      .execute();
    const report: ActivationRegistrationsReport = {
      claimed: 0,
      registered: 0,
      retrying: 0,
      suspended: 0,
    };
    await forEachConcurrently(due, DEFAULT_CONCURRENCY, async (row) => {
      try {
        const outcome = await attemptOne(row);
        if (outcome === "lost") return;
        report.claimed += 1;
        report[outcome] += 1;
      } catch (error) {
        // A database error or a bug: the claim's lease brings the line back later.
        logger.error({
          msg: "activated line registration interrupted",
          error: error instanceof Error ? error.name : "error",
        });
      }
    });
    return report;
  }

  const rounds = createQueueRounds({
    round: runDue,
    batchSize,
    onRoundFailed: (error) =>
      logger.warn({
        msg: "activated line registrations round failed",
        error: error instanceof Error ? error.name : "error",
      }),
  });

  return {
    runDue(limit = batchSize) {
      return rounds.track(runDue(limit));
    },
    start: rounds.start,
    stop: rounds.stop,
    nudge: rounds.nudge,
  };
}
