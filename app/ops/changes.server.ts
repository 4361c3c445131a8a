import { randomBytes } from "node:crypto";
import os from "node:os";
import { nowIso, type Db } from "~/db/db.server";
import type { PortabilityStatus, StatusChangesTable } from "~/db/schema";
import { hasControlCharacters } from "~/lib/control-characters";
import { enqueueMail } from "~/mail-queue/mail-queue.server";
import { isIsoDate, todayInMexico } from "./dates";
import { PORTABILITY_STATUS_NAMES } from "./labels";
import { normaliseFolio, type Subject } from "./queries.server";

/**
 * The operator's changes (`npm run ops`): an order shipped, a portability request scheduled,
 * completed or rejected. Each is one transaction: the conditional UPDATE (the status it starts
 * from is in its WHERE, so a change made meanwhile by anyone is never overwritten), the audit row
 * in status_changes, and the customer's e-mail in the queue, which the running server sends. A
 * change that cannot be made is a typed refusal with a Spanish message for the operator.
 */

export type RefusalCode =
  | "not_found"
  | "invalid_input"
  | "not_paid"
  | "not_physical"
  | "already_shipped"
  | "wrong_status"
  | "already_scheduled"
  | "date_in_past";

export interface Refusal {
  ok: false;
  code: RefusalCode;
  /** One line, in Spanish, for the operator. */
  message: string;
}

export interface AppliedChange {
  ok: true;
  subject: Subject;
  /** The order's or request's id. */
  id: string;
  folio: string;
  fromStatus: string;
  toStatus: string;
  detail: Record<string, string> | null;
  reason: string | null;
  actor: string;
  changedAt: string;
  /** Where the customer's e-mail goes. */
  email: string;
  /** False when this event's e-mail was already in the queue (it is sent once). */
  mailQueued: boolean;
}

export type ChangeResult = AppliedChange | Refusal;

/** Who makes the changes from this machine: "ops:<operating-system user>". */
export function opsActor(): string {
  let user: string | undefined;
  try {
    user = os.userInfo().username;
  } catch {
    // A user without a passwd entry (some containers): the environment still names it.
    user = process.env.USER ?? process.env.LOGNAME;
  }
  return `ops:${user || "desconocido"}`;
}

const MAX_TEXT = 500;
const MAX_TRACKING = 100;
/** A rejection reason is read by the customer: a word or two at least. */
const MIN_REJECTION_REASON = 5;
/** Each change retries when the record changed between reading it and writing it. */
const ATTEMPTS = 3;

function refuse(code: RefusalCode, message: string): Refusal {
  return { ok: false, code, message };
}

/** Trimmed text on one line, or a refusal naming the field; empty optional text is null. */
function cleanText(
  value: string | null | undefined,
  field: string,
  { required = false, max = MAX_TEXT, min = 1 } = {},
): { ok: true; value: string | null } | Refusal {
  const text = (value ?? "").replace(/\s+/g, " ").trim();
  if (!text) {
    return required ? refuse("invalid_input", `Falta ${field}.`) : { ok: true, value: null };
  }
  if (text.length < min) {
    return refuse(
      "invalid_input",
      `${capitalise(field)} es demasiado corto (mínimo ${min} caracteres).`,
    );
  }
  if (text.length > max) {
    return refuse(
      "invalid_input",
      `${capitalise(field)} es demasiado largo (máximo ${max} caracteres).`,
    );
  }
  // The customer reads it (the e-mail, the status page), as the operator's terminal does.
  if (hasControlCharacters(text)) {
    return refuse(
      "invalid_input",
      `${capitalise(field)} tiene caracteres de control o de dirección de texto; escríbelo sin ellos.`,
    );
  }
  return { ok: true, value: text };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The status_changes row and the e-mail, written with the update in one transaction. */
async function record(
  trx: Db,
  change: Omit<AppliedChange, "ok" | "mailQueued" | "changedAt">,
  /** Queues the customer's e-mail in the transaction (given the audit row's id); true if new. */
  enqueue: (trx: Db, to: string, changeId: string) => Promise<boolean>,
  at: string,
): Promise<AppliedChange> {
  // A record's changes read in the order of their times: two made within one millisecond (a
  // script) get distinct, increasing times, so ordering by created_at alone is always right.
  const last = await trx
    .selectFrom("status_changes")
    .select((eb) => eb.fn.max("created_at").as("latest"))
    .where("subject", "=", change.subject)
    .where("subject_id", "=", change.id)
    .executeTakeFirst();
  const latest = last?.latest ? Date.parse(last.latest) : Number.NEGATIVE_INFINITY;
  const changedAt = Date.parse(at) > latest ? at : new Date(latest + 1).toISOString();
  const row: StatusChangesTable = {
    id: randomBytes(12).toString("base64url"),
    subject: change.subject,
    subject_id: change.id,
    from_status: change.fromStatus,
    to_status: change.toStatus,
    detail: change.detail ? JSON.stringify(change.detail) : null,
    reason: change.reason,
    actor: change.actor,
    created_at: changedAt,
  };
  await trx.insertInto("status_changes").values(row).execute();
  const mailQueued = await enqueue(trx, change.email, row.id);
  return { ok: true, ...change, changedAt, mailQueued };
}

export interface ShipOrderInput {
  /** The parcel service ("Estafeta", "DHL"…); optional. */
  carrier?: string | null;
  trackingNumber: string;
  reason?: string | null;
  actor: string;
}

/**
 * Marks a paid physical-SIM order shipped with its tracking number, and queues the customer's
 * "order_shipped" e-mail. Refused for an unknown folio, an order not paid, an eSIM order, and an
 * order already shipped (shipping twice changes nothing and sends nothing).
 */
export async function shipOrder(
  db: Db,
  folio: string,
  input: ShipOrderInput,
): Promise<ChangeResult> {
  const tracking = cleanText(input.trackingNumber, "el número de guía", {
    required: true,
    max: MAX_TRACKING,
  });
  if (!tracking.ok) return tracking;
  const carrier = cleanText(input.carrier, "la paquetería", { max: MAX_TRACKING });
  if (!carrier.ok) return carrier;
  const reason = cleanText(input.reason, "el motivo");
  if (!reason.ok) return reason;
  const wanted = normaliseFolio(folio);

  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const order = await db
      .selectFrom("orders")
      .select([
        "id",
        "folio",
        "status",
        "sim_type",
        "email",
        "shipped_at",
        "carrier",
        "tracking_number",
      ])
      .where("folio", "=", wanted)
      .executeTakeFirst();
    if (!order) return refuse("not_found", `No existe el pedido ${wanted}.`);
    if (order.shipped_at) {
      const sent = [order.carrier, order.tracking_number && `guía ${order.tracking_number}`]
        .filter(Boolean)
        .join(", ");
      return refuse(
        "already_shipped",
        `El pedido ${order.folio} ya está marcado como enviado (${sent}); no se cambió nada.`,
      );
    }
    if (order.status !== "paid") {
      return refuse(
        "not_paid",
        `El pedido ${order.folio} no está pagado (${order.status === "cancelled" ? "cancelado" : "pendiente de pago"}); solo se envía un pedido pagado.`,
      );
    }
    if (order.sim_type !== "physical") {
      return refuse(
        "not_physical",
        `El pedido ${order.folio} es de eSIM: no lleva envío (el cliente recibe su código QR).`,
      );
    }
    const now = nowIso();
    const applied = await db.transaction().execute(async (trx) => {
      // The write comes first: it takes the database's write lock (waiting the busy timeout for
      // the server), and its WHERE re-checks what was read above.
      const updated = await trx
        .updateTable("orders")
        .set({
          shipped_at: now,
          carrier: carrier.value,
          tracking_number: tracking.value,
          updated_at: now,
        })
        .where("id", "=", order.id)
        .where("status", "=", "paid")
        .where("sim_type", "=", "physical")
        .where("shipped_at", "is", null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      return record(
        trx,
        {
          subject: "order",
          id: order.id,
          folio: order.folio,
          fromStatus: "paid",
          toStatus: "shipped",
          detail: {
            ...(carrier.value ? { carrier: carrier.value } : {}),
            trackingNumber: tracking.value as string,
          },
          reason: reason.value,
          actor: input.actor,
          email: order.email,
        },
        (tx, to) =>
          enqueueMail(tx, {
            dedupeKey: `order-shipped:${order.id}`,
            to,
            template: "order_shipped",
            data: { orderRef: order.id },
          }),
        now,
      );
    });
    if (applied) return applied;
  }
  return changedMeanwhile(wanted);
}

function changedMeanwhile(folio: string): Refusal {
  return refuse(
    "wrong_status",
    `${folio} cambió mientras se modificaba; consulta su estado e inténtalo de nuevo.`,
  );
}

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
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
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
      return record(
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
