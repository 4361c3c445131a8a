import type { Logger } from "pino";
import type { Db } from "~/db/db.server";
import type { EsimProvisioner } from "~/esim/provisioning";
import type { Bss } from "~/line/bss";
import { backoffDelay, createQueueRounds, forEachConcurrently } from "~/lib/queue-rounds.server";
import { composeMail, type ComposeDeps, type ComposeResult } from "./compose.server";
import type { SupportContact } from "./layout";
import type { MailTransport } from "./transport.server";

/** After the 1st, 2nd, 3rd, 4th failed attempt, then every further one: 30 s, 2 min, 10 min, 30 min, hourly. */
export const RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  60 * 60_000,
];
/** Twelve attempts span about eight hours: an SMTP outage of a working day loses nothing. */
export const MAX_ATTEMPTS = 12;
/**
 * How long a claimed e-mail is left alone by the other senders. Longer than any attempt can
 * take (SMTP timeouts of 40 s at most, an eSIM provisioner's few seconds per code), so an
 * e-mail is sent by one sender at a time; if this process dies mid-send it is retried after.
 */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** A `failed` row whose last_error starts so was not sent on purpose (no longer true). */
export const OBSOLETE_PREFIX = "obsolete:";

const DEFAULT_BATCH = 20;
const DEFAULT_CONCURRENCY = 4;

export interface MailerOptions {
  db: Db;
  transport: MailTransport;
  /** `MAIL_FROM`, e.g. `"Conecta Móvil" <hola@conectamovil.mx>`. */
  from: string;
  replyTo?: string;
  /** The store's public origin, for the links in the e-mails. */
  origin: string;
  esim: EsimProvisioner;
  /** Reads a line as it is now, for the running-out e-mail and a top-up's receipt. */
  bss?: Pick<Bss, "findLine">;
  /** Works a pending line job now: a top-up's receipt tells the vigencia once applied. */
  runLineJob?: ComposeDeps["runLineJob"];
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** The footer's contact line. */
  support?: SupportContact | null;
  now?: () => Date;
  maxAttempts?: number;
  retryDelaysMs?: readonly number[];
  claimLeaseMs?: number;
  /** How many e-mails one background round claims (rounds follow each other while full). */
  batchSize?: number;
  /** How many e-mails are being composed and sent at once. */
  concurrency?: number;
}

export interface DeliveryReport {
  /** E-mails this call claimed (others may have been claimed by a concurrent call). */
  claimed: number;
  sent: number;
  /** Failed this time, to be tried again. */
  retrying: number;
  /** Given up: permanently failed, out of attempts, or no longer true. */
  failed: number;
}

export interface MailQueueStats {
  pending: number;
  /** Given up after failures (an e-mail left unsent on purpose, being obsolete, is not counted). */
  failed: number;
  /** How long the oldest e-mail still to be sent has been waiting; 0 when none. */
  oldestPendingSeconds: number;
}

export interface Mailer {
  /** Sends the e-mails that are due, at most `limit`; safe to run in several places at once. */
  deliverDue(limit?: number): Promise<DeliveryReport>;
  /** Delivers every `intervalMs` in the background (an unref'd timer), starting now. */
  start(intervalMs: number): void;
  /** No more rounds; resolves when the e-mails being sent are done. */
  stop(): Promise<void>;
  /** Delivers soon (after an enqueue) without waiting for the interval. */
  nudge(): void;
  /** For /readyz. */
  stats(): Promise<MailQueueStats>;
}

/** The domain of the sender's address, for Message-IDs. */
function senderDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match ? match[1].toLowerCase() : "localhost";
}

const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,31}$/;
const SMTP_COMMAND = /^[A-Z][A-Z ]{1,15}$/;

/**
 * What a failed send stores and logs: nodemailer's code, the SMTP reply code and the command,
 * never the message (a server's reply may quote the recipient's address).
 */
export function describeSendError(error: unknown, transportName = "smtp"): string {
  const fields = (error ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [
    typeof fields.code === "string" && ERROR_CODE.test(fields.code) ? fields.code : null,
    typeof fields.responseCode === "number" ? String(fields.responseCode) : null,
    typeof fields.command === "string" && SMTP_COMMAND.test(fields.command) ? fields.command : null,
  ].filter((part) => part !== null);
  return `${transportName} ${parts.length ? parts.join(" ") : "error"}`;
}

/** An address the receiving server refused for good (550 mailbox unknown…): no retry helps. */
function isPermanentSendError(error: unknown): boolean {
  const fields = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  return (
    fields.code === "EENVELOPE" &&
    typeof fields.responseCode === "number" &&
    fields.responseCode >= 500 &&
    fields.responseCode < 600
  );
}

/** An unexpected error, by its code or class only: its message may quote data. */
function describeError(error: unknown, stage: string): string {
  const fields = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof fields.code === "string" && ERROR_CODE.test(fields.code)) {
    return `${stage} ${fields.code}`;
  }
  return typeof fields.name === "string" && /^\w{1,40}$/.test(fields.name)
    ? `${stage} ${fields.name}`
    : `${stage} error`;
}

interface DueRow {
  id: string;
  template: string;
  data: string;
  to_address: string;
  attempts: number;
  next_attempt_at: string;
}

type Settled = "sent" | "retrying" | "failed" | "lost";

/**
 * Sends the queued e-mails (table mail_queue, filled by enqueueMail in the same transaction as
 * what they tell). Each e-mail is claimed with a conditional UPDATE before it is sent, so two
 * rounds (two timers, two processes) never send the same one; a failure is retried with
 * backoff, up to `maxAttempts`. Logs carry the template and the row's id, never an address or
 * a message's contents.
 */
export function createMailer(options: MailerOptions): Mailer {
  const { db, transport, logger } = options;
  const clock = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const lease = options.claimLeaseMs ?? CLAIM_LEASE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const domain = senderDomain(options.from);

  const retryDelay = (attempt: number) => backoffDelay(delays, attempt);
  const later = (ms: number) => new Date(clock().getTime() + ms).toISOString();

  /** Takes the row for this attempt; false when another round took it first. */
  async function claim(row: DueRow): Promise<boolean> {
    const result = await db
      .updateTable("mail_queue")
      .set({ attempts: row.attempts + 1, next_attempt_at: later(lease) })
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .where("attempts", "=", row.attempts)
      .where("next_attempt_at", "=", row.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes the attempt's outcome, if the claim still holds (it does unless the lease ran out). */
  async function settle(
    row: DueRow,
    attempt: number,
    values: {
      status: "pending" | "sent" | "failed";
      next_attempt_at?: string;
      last_error: string | null;
      sent_at?: string;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable("mail_queue")
      .set(values)
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .where("attempts", "=", attempt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function giveUp(row: DueRow, attempt: number, error: string, why: string) {
    await settle(row, attempt, { status: "failed", last_error: error });
    logger.error({
      msg: "mail failed",
      template: row.template,
      mailId: row.id,
      attempt,
      reason: why,
      error,
    });
    return "failed" as const;
  }

  async function retryLater(row: DueRow, attempt: number, error: string): Promise<Settled> {
    if (attempt >= maxAttempts) return giveUp(row, attempt, error, "out of attempts");
    const delayMs = retryDelay(attempt);
    await settle(row, attempt, {
      status: "pending",
      next_attempt_at: later(delayMs),
      last_error: error,
    });
    logger.warn({
      msg: "mail not sent, will retry",
      template: row.template,
      mailId: row.id,
      attempt,
      retryInSeconds: Math.round(delayMs / 1000),
      error,
    });
    return "retrying";
  }

  async function attemptOne(row: DueRow): Promise<Settled> {
    if (!(await claim(row))) return "lost";
    const attempt = row.attempts + 1;
    let composed: ComposeResult;
    try {
      composed = await composeMail(
        {
          db,
          origin: options.origin,
          esim: options.esim,
          bss: options.bss,
          runLineJob: options.runLineJob,
          logger,
          support: options.support,
          now: clock,
        },
        row,
      );
    } catch (error) {
      return retryLater(row, attempt, describeError(error, "compose"));
    }
    switch (composed.kind) {
      case "retry":
        return retryLater(row, attempt, `compose: ${composed.reason}`);
      case "permanent":
        return giveUp(row, attempt, `permanent: ${composed.reason}`, "cannot be written");
      case "obsolete":
        await settle(row, attempt, {
          status: "failed",
          last_error: `${OBSOLETE_PREFIX} ${composed.reason}`,
        });
        logger.info({
          msg: "mail not sent: no longer true",
          template: row.template,
          mailId: row.id,
          reason: composed.reason,
        });
        return "failed";
      case "ready":
        break;
    }
    try {
      await transport.send({
        from: options.from,
        to: row.to_address,
        replyTo: options.replyTo,
        ...composed.mail,
        messageId: `<mail-${row.id}@${domain}>`,
        meta: { mailId: row.id, template: row.template },
      });
    } catch (error) {
      const described = describeSendError(error, transport.name);
      return isPermanentSendError(error)
        ? giveUp(row, attempt, `permanent: ${described}`, "recipient refused")
        : retryLater(row, attempt, described);
    }
    await settle(row, attempt, {
      status: "sent",
      last_error: null,
      sent_at: clock().toISOString(),
    });
    logger.info({
      msg: "mail sent",
      template: row.template,
      mailId: row.id,
      attempt,
      transport: transport.name,
    });
    return "sent";
  }

  async function deliver(limit: number): Promise<DeliveryReport> {
    const due: DueRow[] = await db
      .selectFrom("mail_queue")
      .select(["id", "template", "data", "to_address", "attempts", "next_attempt_at"])
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", clock().toISOString())
      .orderBy("next_attempt_at")
      .orderBy("created_at")
      .limit(Math.max(1, Math.trunc(limit)))
      .execute();
    const report: DeliveryReport = { claimed: 0, sent: 0, retrying: 0, failed: 0 };
    await forEachConcurrently(due, concurrency, async (row) => {
      try {
        const outcome = await attemptOne(row);
        if (outcome === "lost") return;
        report.claimed += 1;
        report[outcome] += 1;
      } catch (error) {
        // The database failed us mid-attempt: the claim's lease brings the e-mail back later.
        logger.warn({
          msg: "mail attempt interrupted",
          template: row.template,
          mailId: row.id,
          error: describeError(error, "database"),
        });
      }
    });
    return report;
  }

  const rounds = createQueueRounds({
    round: deliver,
    batchSize,
    onRoundFailed: (error) =>
      logger.warn({ msg: "mail delivery round failed", error: describeError(error, "database") }),
  });

  return {
    deliverDue(limit = batchSize) {
      return rounds.track(deliver(limit));
    },
    start: rounds.start,
    stop: rounds.stop,
    nudge: rounds.nudge,

    async stats() {
      const rows = await db
        .selectFrom("mail_queue")
        .select((eb) => [
          "status",
          eb.fn.countAll<number>().as("count"),
          eb.fn.min("created_at").as("oldest"),
        ])
        .where((eb) =>
          eb.or([
            eb("status", "=", "pending"),
            eb.and([
              eb("status", "=", "failed"),
              eb.or([
                eb("last_error", "is", null),
                eb("last_error", "not like", `${OBSOLETE_PREFIX}%`),
              ]),
            ]),
          ]),
        )
        .groupBy("status")
        .execute();
      const pending = rows.find((row) => row.status === "pending");
      const failed = rows.find((row) => row.status === "failed");
      const oldest = pending?.oldest ? Date.parse(String(pending.oldest)) : NaN;
      return {
        pending: Number(pending?.count ?? 0),
        failed: Number(failed?.count ?? 0),
        oldestPendingSeconds: Number.isNaN(oldest)
          ? 0
          : Math.max(0, Math.floor((clock().getTime() - oldest) / 1000)),
      };
    },
  };
}
