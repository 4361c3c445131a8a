import type { Db } from "~/db/db.server";
import { rekeyOrderHolders } from "~/registration/order-holders.server";
import { mexicoCityRange } from "~/lib/mexico-city-days";
import { listWaitingLines, type WaitingLine } from "~/registration/activation-registrations.server";
import { disputedRegistrationIds } from "~/registration/registration-notices.server";
import {
  findRegistration,
  listRegistrations,
  rekeyRegistrations,
  revealHolderKey,
  type LineRegistration,
  type RegistrationKeys,
} from "~/registration/registrations.server";

/**
 * `npm run ops -- registros [--desde …] [--hasta …] [--csv …]`: the lines registered to their
 * holders now (a replaced registration is not listed), newest first. The table shows the CURP,
 * RFC or passport only masked; the CSV, which the operator exports for the authority, has it
 * whole.
 */
export interface RegistrationRow extends LineRegistration {
  /** The whole CURP, RFC or "nationality:passport": only when asked for (the CSV); else null. */
  holderKey: string | null;
}

/**
 * Where a line's registration stands (decision 0101): "registered" (registrada, its current
 * registration), "pending" (pendiente: a holder was given and the registration is being retried
 * while the validation service does not answer), "suspended" (suspendida: refused for good or
 * retries given up, the line has none until its customer registers it).
 */
export type RegistrationListState = "registered" | "pending" | "suspended";

/** `--estado disputada`: the registrations someone said "no fui yo" about (decision 0136). */
export type RegistrationListWord = RegistrationListState | "disputed";

export interface DisputedRegistrationRow extends RegistrationRow {
  /** When the notice's recipient said "no fui yo" (the first time, if several did). */
  disputedAt: string;
}

/**
 * The registrations a notice's recipient disputed, the newest dispute first, replaced ones too
 * (the registration may have been undone since): the operator reviews each with its folio.
 */
export async function listDisputedRegistrationRows(
  db: Db,
  keys: RegistrationKeys,
  filter: { reveal?: boolean } = {},
): Promise<DisputedRegistrationRow[]> {
  const rows: DisputedRegistrationRow[] = [];
  for (const dispute of await disputedRegistrationIds(db)) {
    const registration = await findRegistration(db, dispute.registrationId);
    if (!registration) continue;
    rows.push({
      ...registration,
      holderKey: filter.reveal ? await revealHolderKey(db, keys, registration.id) : null,
      disputedAt: dispute.disputedAt,
    });
  }
  return rows;
}

/** A line waiting for its registration or left without one: nothing of its holder. */
export type WaitingLineRow = WaitingLine;

/** Those waiting or left without registration, by the Mexico City day they were activated. */
export async function listWaitingLineRows(
  db: Db,
  state: "pending" | "suspended",
  filter: { from?: string; to?: string } = {},
): Promise<WaitingLineRow[]> {
  const { fromInstant, toInstant } = mexicoCityRange(filter);
  return (await listWaitingLines(db, state)).filter(
    (line) => (!fromInstant || line.since >= fromInstant) && (!toInstant || line.since < toInstant),
  );
}

/** How many lines are in each state now (the current registrations; those still without one). */
export async function registrationStateCounts(
  db: Db,
): Promise<Record<RegistrationListState, number>> {
  return {
    registered: (await listRegistrations(db)).length,
    pending: (await listWaitingLines(db, "pending")).length,
    suspended: (await listWaitingLines(db, "suspended")).length,
  };
}

export interface RegistrationRowFilter {
  /** Mexico City days (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  /** Open each holder's sealed key: for the CSV only. */
  reveal?: boolean;
}

export async function listRegistrationRows(
  db: Db,
  keys: RegistrationKeys,
  filter: RegistrationRowFilter = {},
): Promise<RegistrationRow[]> {
  const registrations = await listRegistrations(db, { from: filter.from, to: filter.to });
  const rows: RegistrationRow[] = [];
  for (const registration of registrations.reverse()) {
    rows.push({
      ...registration,
      holderKey: filter.reveal ? await revealHolderKey(db, keys, registration.id) : null,
    });
  }
  return rows;
}

/**
 * `npm run ops -- recifrar-registros`, after a new secret was put first in SESSION_SECRET: every
 * registration sealed and hashed under an older secret is sealed and hashed again under the
 * newest. `unreadable` counts those no listed secret opens (a secret removed too soon): they can
 * be neither shown nor counted towards their holder's 10 lines until that secret is listed again.
 */
export interface RekeyOutcome {
  rewritten: number;
  /** Holders kept for an order's lines not yet activated, sealed again. */
  waitingHolders: number;
  unreadable: number;
  total: number;
}

export async function rekeyRegistrationRows(db: Db, keys: RegistrationKeys): Promise<RekeyOutcome> {
  const rewritten = await rekeyRegistrations(db, keys);
  const waitingHolders = await rekeyOrderHolders(db, keys);
  let unreadable = 0;
  let total = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("registrations")
      .select(["id", "holder_key_sealed"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (rows.length === 0) return { rewritten, waitingHolders, unreadable, total };
    for (const row of rows) {
      total += 1;
      if (keys.open(row.holder_key_sealed, row.id) === null) unreadable += 1;
    }
    after = rows[rows.length - 1].id;
  }
}
