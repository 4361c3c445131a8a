import type { Db } from "~/db/db.server";
import { mexicoCityRange } from "~/lib/mexico-city-days";
import { listWaitingLines, type WaitingLine } from "~/registration/activation-registrations.server";
import {
  listRegistrations,
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
