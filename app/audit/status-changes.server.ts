import { randomBytes } from "node:crypto";
import type { Db } from "~/db/db.server";
import type { StatusChangesTable } from "~/db/schema";
import { hasControlCharacters } from "~/lib/control-characters";

/**
 * The audit trail of the operator's changes (table status_changes), below the capabilities like
 * the mail queue: checkout (an order shipped) and portability (a request scheduled, completed or
 * rejected) each write their change, its audit row and the customer's e-mail in one transaction,
 * and `npm run ops` (app/ops) calls them and reads the trail (decision 0085). A change that
 * cannot be made is a typed refusal with a Spanish message for the operator.
 */

/** What a change is about; a folio's series names it (PED, REC, POR), or a line job's reference. */
export type Subject = StatusChangesTable["subject"];

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

const MAX_TEXT = 500;
/** Each change retries when the record changed between reading it and writing it. */
export const CHANGE_ATTEMPTS = 3;

export function refuse(code: RefusalCode, message: string): Refusal {
  return { ok: false, code, message };
}

/** Every attempt found the record changed between reading and writing it. */
export function changedMeanwhile(folio: string): Refusal {
  return refuse(
    "wrong_status",
    `${folio} cambió mientras se modificaba; consulta su estado e inténtalo de nuevo.`,
  );
}

/** Trimmed text on one line, or a refusal naming the field; empty optional text is null. */
export function cleanText(
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

/**
 * The status_changes row and the e-mail, written in the transaction of the change itself (the
 * caller's conditional update). Answers the applied change.
 */
export async function recordStatusChange(
  trx: Db,
  change: Omit<AppliedChange, "ok" | "mailQueued" | "changedAt">,
  /** Queues the customer's e-mail in the transaction (given the audit row's id); true if new. */
  enqueue: (trx: Db, to: string, changeId: string) => Promise<boolean>,
  at: string,
): Promise<AppliedChange> {
  const { id, changedAt } = await recordChange(trx, change, at);
  const mailQueued = await enqueue(trx, change.email, id);
  return { ok: true, ...change, changedAt, mailQueued };
}

/**
 * The status_changes row of a change the customer is not written about (a line job the BSS
 * refused, put back in its queue), in the transaction of the change itself. Answers the row's
 * id and time.
 */
export async function recordChange(
  trx: Db,
  change: Pick<
    AppliedChange,
    "subject" | "id" | "fromStatus" | "toStatus" | "detail" | "reason" | "actor"
  >,
  at: string,
): Promise<{ id: string; changedAt: string }> {
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
  return { id: row.id, changedAt };
}

export interface StatusChangeRow {
  id: string;
  fromStatus: string | null;
  toStatus: string;
  /** Parsed JSON of the change's detail (tracking number, scheduled date…), if any. */
  detail: Record<string, unknown> | null;
  reason: string | null;
  actor: string;
  createdAt: string;
}

/** One record's changes, oldest first (each record's changes have increasing times). */
export async function statusChangesOf(
  db: Db,
  subject: Subject,
  subjectId: string,
): Promise<StatusChangeRow[]> {
  const rows = await db
    .selectFrom("status_changes")
    .selectAll()
    .where("subject", "=", subject)
    .where("subject_id", "=", subjectId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    reason: row.reason,
    actor: row.actor,
    createdAt: row.created_at,
  }));
}
