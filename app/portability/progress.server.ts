import {
  CHANGE_ATTEMPTS,
  changedMeanwhile,
  cleanText,
  recordStatusChange,
  refuse,
  type ChangeResult,
  type Refusal,
} from "~/audit/status-changes.server";
import { nowIso, type Db } from "~/db/db.server";
import { normaliseFolio } from "~/db/folio";
import type { PortabilityStatus } from "~/db/schema";
import { isIsoDate, todayInMexico } from "~/lib/mexico-city-days";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { PORTABILITY_STATUS_NAMES } from "./status-names";

/**
 * A portability request moved along by the operator (`npm run ops -- programar | completar |
 * rechazar`): scheduled for a date, completed, or rejected with a reason the customer reads. Each
 * is one transaction: the conditional UPDATE (the status it starts from is in its WHERE, so a
 * change made meanwhile by anyone is never overwritten), the audit row in status_changes, and the
 * customer's e-mail in the queue, which the running server sends.
 */

/** A rejection reason is read by the customer: a word or two at least. */
const MIN_REJECTION_REASON = 5;

interface PortabilityTransition {
  /** The statuses it may start from. */
  from: readonly PortabilityStatus[];
  to: Exclude<PortabilityStatus, "received">;
  set: { scheduled_for?: string; rejection_reason?: string };
  detail: Record<string, string> | null;
  reason: string | null;
  actor: string;
  /** What the operator is told when the request is in another status. */
  refusal: (folio: string, status: PortabilityStatus) => string;
  /** A further check once the request is read (e.g. the same date again). */
  check?: (request: { status: PortabilityStatus; scheduled_for: string | null }) => Refusal | null;
}

async function movePortability(
  db: Db,
  folio: string,
  transition: PortabilityTransition,
): Promise<ChangeResult> {
  const wanted = normaliseFolio(folio);
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const request = await db
      .selectFrom("portability_requests")
      .select(["id", "folio", "status", "email", "scheduled_for"])
      .where("folio", "=", wanted)
      .executeTakeFirst();
    if (!request) return refuse("not_found", `No existe la solicitud de portabilidad ${wanted}.`);
    if (!transition.from.includes(request.status)) {
      return refuse("wrong_status", transition.refusal(request.folio, request.status));
    }
    const further = transition.check?.(request);
    if (further) return further;
    const now = nowIso();
    const applied = await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable("portability_requests")
        .set({ status: transition.to, ...transition.set, updated_at: now })
        .where("id", "=", request.id)
        // Exactly the status read: a change made meanwhile makes this update nothing.
        .where("status", "=", request.status)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      // Each status is told once; a new date for a scheduled request is news of its own.
      const rescheduled = request.status === "in_progress" && transition.to === "in_progress";
      return recordStatusChange(
        trx,
        {
          subject: "portability",
          id: request.id,
          folio: request.folio,
          fromStatus: request.status,
          toStatus: transition.to,
          detail: transition.detail,
          reason: transition.reason,
          actor: transition.actor,
          email: request.email,
        },
        (tx, to, changeId) =>
          enqueueMail(tx, {
            dedupeKey: rescheduled
              ? `portability-in_progress:${request.id}:${changeId}`
              : `portability-${transition.to}:${request.id}`,
            to,
            template: "portability_status",
            data: { requestId: request.id, status: transition.to },
          }),
        now,
      );
    });
    if (applied) return applied;
  }
  return changedMeanwhile(wanted);
}

function statusName(status: PortabilityStatus): string {
  return PORTABILITY_STATUS_NAMES[status].toLowerCase();
}

export interface SchedulePortabilityInput {
  /** YYYY-MM-DD, Mexico City: today or later. */
  date: string;
  reason?: string | null;
  actor: string;
  /** For tests: the moment "today" is read from. */
  now?: Date;
}

/**
 * Schedules a received request for a date (status "Programada"), or moves a scheduled one to
 * another date, and queues the customer's e-mail. The date is today or later in Mexico City.
 */
export async function schedulePortability(
  db: Db,
  folio: string,
  input: SchedulePortabilityInput,
): Promise<ChangeResult> {
  const date = input.date.trim();
  if (!isIsoDate(date)) {
    return refuse(
      "invalid_input",
      `La fecha ${date || "(vacía)"} no es válida; escríbela como AAAA-MM-DD.`,
    );
  }
  const today = todayInMexico(input.now);
  if (date < today) {
    return refuse(
      "date_in_past",
      `La fecha ${date} ya pasó (hoy es ${today} en la Ciudad de México).`,
    );
  }
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  return movePortability(db, folio, {
    from: ["received", "in_progress"],
    to: "in_progress",
    set: { scheduled_for: date },
    detail: { scheduledFor: date },
    reason: reason.value,
    actor: input.actor,
    refusal: (found, status) =>
      `La solicitud ${found} está ${statusName(status)}; solo se programa una solicitud recibida o programada.`,
    check: (request) =>
      request.status === "in_progress" && request.scheduled_for === date
        ? refuse(
            "already_scheduled",
            `La solicitud ${normaliseFolio(folio)} ya está programada para el ${date}; no se cambió nada.`,
          )
        : null,
  });
}

export interface CompletePortabilityInput {
  reason?: string | null;
  actor: string;
}

/** Marks a scheduled request completed (the number now works with us); queues the e-mail. */
export async function completePortability(
  db: Db,
  folio: string,
  input: CompletePortabilityInput,
): Promise<ChangeResult> {
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  return movePortability(db, folio, {
    from: ["in_progress"],
    to: "completed",
    set: {},
    detail: null,
    reason: reason.value,
    actor: input.actor,
    refusal: (found, status) =>
      status === "received"
        ? `La solicitud ${found} está recibida: prográmala con una fecha antes de completarla.`
        : `La solicitud ${found} ya está ${statusName(status)}; solo se completa una solicitud programada.`,
  });
}

export interface RejectPortabilityInput {
  /** Shown to the customer, in Spanish. */
  reason: string;
  actor: string;
}

/**
 * Rejects a received or scheduled request; the reason is shown to the customer (lookup page and
 * e-mail), so it is required and written in Spanish. The number may then be requested again.
 */
export async function rejectPortability(
  db: Db,
  folio: string,
  input: RejectPortabilityInput,
): Promise<ChangeResult> {
  const reason = cleanText(input.reason, "el motivo del rechazo (lo lee el cliente)", {
    required: true,
    min: MIN_REJECTION_REASON,
  });
  if (!reason.ok) return reason;
  const text = reason.value as string;
  return movePortability(db, folio, {
    from: ["received", "in_progress"],
    to: "rejected",
    set: { rejection_reason: text },
    detail: null,
    reason: text,
    actor: input.actor,
    refusal: (found, status) =>
      `La solicitud ${found} ya está ${statusName(status)}; solo se rechaza una solicitud recibida o programada.`,
  });
}
