import { randomBytes } from "node:crypto";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import { nextFolio } from "~/db/folio-counter.server";
import type { AssistedValidationsTable } from "~/db/schema";
import { mexicoCityRange } from "~/lib/mexico-city-days";
import {
  ASSISTED_VALIDATION_SERIES,
  type Contact,
  type TimeWindow,
} from "./assisted-validation-form";

/**
 * Requests for an assisted validation (issue 48, decision 0140), written only here: one per form
 * key, each with its folio; the operator lists them (`npm run ops -- validaciones-asistidas`).
 */
export interface AssistedValidation {
  id: string;
  folio: string;
  number: string;
  contact: Contact;
  timeWindow: TimeWindow;
  createdAt: string;
}

export interface AssistedValidationInput {
  idempotencyKey: string;
  number: string;
  contact: Contact;
  timeWindow: TimeWindow;
}

function fromRow(row: AssistedValidationsTable): AssistedValidation {
  return {
    id: row.id,
    folio: row.folio,
    number: row.number,
    contact: { kind: row.contact_kind, value: row.contact },
    timeWindow: row.time_window,
    createdAt: row.created_at,
  };
}

/** The request made with this form key, if any: the same form sent again finds it. */
export async function findAssistedValidationByKey(
  db: Db,
  idempotencyKey: string,
): Promise<AssistedValidation | null> {
  const row = await db
    .selectFrom("assisted_validations")
    .selectAll()
    .where("idempotency_key", "=", idempotencyKey)
    .executeTakeFirst();
  return row ? fromRow(row) : null;
}

/**
 * Records the request with the next folio of its series, once per form key: a twin sent at the
 * same time (a double click) loses on the key's unique index and gets the winner's request.
 */
export async function recordAssistedValidation(
  db: Db,
  input: AssistedValidationInput,
): Promise<{ request: AssistedValidation; created: boolean }> {
  const existing = await findAssistedValidationByKey(db, input.idempotencyKey);
  if (existing) return { request: existing, created: false };
  try {
    const row = await db.transaction().execute(async (trx) => {
      const values: AssistedValidationsTable = {
        id: randomBytes(16).toString("base64url"),
        folio: await nextFolio(trx, ASSISTED_VALIDATION_SERIES),
        idempotency_key: input.idempotencyKey,
        number: input.number,
        contact_kind: input.contact.kind,
        contact: input.contact.value,
        time_window: input.timeWindow,
        created_at: nowIso(),
      };
      await trx.insertInto("assisted_validations").values(values).execute();
      return values;
    });
    return { request: fromRow(row), created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await findAssistedValidationByKey(db, input.idempotencyKey);
    if (!winner) throw error;
    return { request: winner, created: false };
  }
}

/** The requests, newest first, by the Mexico City days they were made (both included). */
export async function listAssistedValidations(
  db: Db,
  filter: { from?: string; to?: string } = {},
): Promise<AssistedValidation[]> {
  const { fromInstant, toInstant } = mexicoCityRange(filter);
  let query = db.selectFrom("assisted_validations").selectAll();
  if (fromInstant) query = query.where("created_at", ">=", fromInstant);
  if (toInstant) query = query.where("created_at", "<", toInstant);
  const rows = await query.orderBy("created_at", "desc").orderBy("folio", "desc").execute();
  return rows.map(fromRow);
}
