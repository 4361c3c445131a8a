import {
  CHANGE_ATTEMPTS,
  changedMeanwhile,
  cleanText,
  recordStatusChange,
  refuse,
  type AppliedChange,
  type ChangeResult,
  type Refusal,
} from "~/audit/status-changes.server";
import { nowIso, type Db } from "~/db/db.server";
import { normaliseFolio } from "~/db/folio";
import type { PortabilityStatus } from "~/db/schema";
import { isIsoDate, todayInMexico } from "~/lib/mexico-city-days";
import { normaliseIccid, findShippedSim } from "~/checkout/shipped-sims.server";
import { findEsimByIccid } from "~/esim/activations.server";
import { isWellFormedIccid } from "~/esim/provisioning";
import { portInActivationRef, queuePortInActivation } from "~/line/activations.server";
import { activationJobId, lineJobOutcome } from "~/line/line-jobs.server";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { orderSimIccid, releaseOrderSim } from "./order-port-ins.server";
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
  check?: (request: MovedRequest) => Refusal | null;
  /** What follows from the change, in its transaction (a completed port's line). */
  alsoInTransaction?: (trx: Db, request: MovedRequest, at: Date) => Promise<void>;
}

/** The request as a transition reads it. */
interface MovedRequest {
  id: string;
  folio: string;
  status: PortabilityStatus;
  email: string;
  scheduled_for: string | null;
  phone_number: string;
  iccid: string | null;
  customer_sub: string | null;
}

/** What a transition reads of the request: MovedRequest's columns. */
const MOVED_REQUEST_COLUMNS = [
  "id",
  "folio",
  "status",
  "email",
  "scheduled_for",
  "phone_number",
  "iccid",
  "customer_sub",
] as const satisfies readonly (keyof MovedRequest)[];

async function movePortability(
  db: Db,
  folio: string,
  transition: PortabilityTransition,
): Promise<ChangeResult> {
  const wanted = normaliseFolio(folio);
  for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt += 1) {
    const request = await db
      .selectFrom("portability_requests")
      .select(MOVED_REQUEST_COLUMNS)
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
      await transition.alsoInTransaction?.(trx, request, new Date(now));
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
  /**
   * The ICCID of the SIM the number moved to, when the request has none (`completar --iccid`).
   * Given for a request already completed without one, it only activates the ported line.
   */
  iccid?: string | null;
}

/**
 * What became of a completed port's line (decision 0092): its activation queued (the ported
 * number on the SIM the store sold, with that SIM's plan, for the requester's account), or why
 * not: no ICCID known, or an ICCID of no SIM the store sold (no plan to start the line with).
 */
export type PortInOutcome =
  | { kind: "queued"; iccid: string; accountSub: string | null }
  | { kind: "no-iccid" }
  | { kind: "unknown-sim"; iccid: string };

export type CompletionResult =
  (ChangeResult & { portIn?: undefined }) | (AppliedChange & { portIn: PortInOutcome });

/** The SIM the store sold with this ICCID (shipped, or an eSIM): its plan and its order's account. */
async function soldSim(
  db: Db,
  iccid: string,
): Promise<{ planId: string; orderSub: string | null } | null> {
  const shipped = await findShippedSim(db, iccid);
  if (shipped) return { planId: shipped.planId, orderSub: shipped.order.customerSub };
  const esim = await findEsimByIccid(db, iccid);
  return esim ? { planId: esim.planId, orderSub: esim.order.customerSub } : null;
}

/** Queues the ported number's line, in the caller's transaction; says what it did. */
async function queuePortIn(
  trx: Db,
  request: MovedRequest,
  iccid: string | null,
  at: Date,
): Promise<PortInOutcome> {
  if (!iccid) return { kind: "no-iccid" };
  const sim = await soldSim(trx, iccid);
  if (!sim) return { kind: "unknown-sim", iccid };
  // The requester's account when the request was made signed in, else the SIM's buyer's.
  const accountSub = request.customer_sub ?? sim.orderSub;
  await queuePortInActivation(
    trx,
    {
      requestId: request.id,
      number: request.phone_number,
      iccid,
      planId: sim.planId,
      accountSub,
    },
    at,
  );
  return { kind: "queued", iccid, accountSub };
}

/**
 * Marks a scheduled request completed (the number now works with us), queues the e-mail, and
 * queues the ported number's line on the SIM it moved to (the request's ICCID, or `iccid` when
 * it has none), all in one transaction. For a request completed without an ICCID, `iccid` then
 * queues its line alone (audited, no e-mail).
 */
export async function completePortability(
  db: Db,
  folio: string,
  input: CompletePortabilityInput,
): Promise<CompletionResult> {
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  const given = input.iccid ? normaliseIccid(input.iccid) : null;
  if (given !== null && !isWellFormedIccid(given)) {
    return refuse(
      "invalid_input",
      `El ICCID ${given} no es válido: son 19 o 20 dígitos que empiezan con 89 y pasan la verificación de Luhn.`,
    );
  }
  const wanted = normaliseFolio(folio);
  const found = await db
    .selectFrom("portability_requests")
    .select(["status", "iccid"])
    .where("folio", "=", wanted)
    .executeTakeFirst();
  if (found && given !== null && found.iccid !== null && found.iccid !== given) {
    return refuse(
      "invalid_input",
      `La solicitud ${wanted} ya tiene el ICCID ${found.iccid}; no se cambió nada.`,
    );
  }
  if (found?.status === "completed" && given !== null) {
    return activateCompletedPort(db, wanted, given, reason.value, input.actor);
  }
  let portIn: PortInOutcome = { kind: "no-iccid" };
  const result = await movePortability(db, folio, {
    from: ["in_progress"],
    to: "completed",
    set: {},
    detail: given ? { iccid: given } : null,
    reason: reason.value,
    actor: input.actor,
    refusal: (found, status) =>
      status === "received"
        ? `La solicitud ${found} está recibida: prográmala con una fecha antes de completarla.`
        : `La solicitud ${found} ya está ${statusName(status)}; solo se completa una solicitud programada.`,
    alsoInTransaction: async (trx, request, at) => {
      // A request filed with an order goes to that order's SIM (decision 0106): its ICCID is
      // read from the order now, known since the eSIM was reserved or the SIM shipped.
      const iccid = request.iccid ?? given ?? (await orderSimIccid(trx, request.id));
      if (iccid !== null && request.iccid === null) {
        await trx
          .updateTable("portability_requests")
          .set({ iccid })
          .where("id", "=", request.id)
          .execute();
      }
      portIn = await queuePortIn(trx, request, iccid, at);
    },
  });
  return result.ok ? { ...result, portIn } : result;
}

/**
 * A request completed without an ICCID, given one now: it is recorded on the request and the
 * ported line queued, audited as completed → completed with the ICCID (no e-mail: the customer
 * was told of the port).
 */
async function activateCompletedPort(
  db: Db,
  folio: string,
  iccid: string,
  reason: string | null,
  actor: string,
): Promise<CompletionResult> {
  const request = await db
    .selectFrom("portability_requests")
    .select(MOVED_REQUEST_COLUMNS)
    .where("folio", "=", folio)
    .executeTakeFirstOrThrow();
  const jobId = activationJobId(portInActivationRef(request.id));
  if (await lineJobOutcome(db, jobId)) {
    return refuse(
      "wrong_status",
      `La línea de la solicitud ${request.folio} ya se está activando o está activa; no se cambió nada.`,
    );
  }
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable("portability_requests")
      .set({ iccid, updated_at: now })
      .where("id", "=", request.id)
      .execute();
    const portIn = await queuePortIn(trx, request, iccid, new Date(now));
    const change = await recordStatusChange(
      trx,
      {
        subject: "portability",
        id: request.id,
        folio: request.folio,
        fromStatus: "completed",
        toStatus: "completed",
        detail: { iccid },
        reason,
        actor,
        email: request.email,
      },
      async () => false,
      now,
    );
    return { ...change, portIn };
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
    // The order's SIM that waited for the number gets a line of its own (decision 0106).
    alsoInTransaction: (trx, request, at) => releaseOrderSim(trx, request.id, at),
  });
}
