import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { isUniqueViolation, type Db } from "~/db/db.server";
import type {
  AutoTopupChargeState,
  AutoTopupChargesTable,
  AutoTopupState,
  AutoTopupsTable,
  Database,
} from "~/db/schema";
import type { AutoTopupRule } from "./rules";
import { mexicoCityMonth } from "./rules";

/**
 * Automatic top-ups (decision 0120): one per line of an account, with its rule, amount, monthly
 * cap and saved card, switched on and off by the customer on the line's page; and their charges,
 * one per line and period (the scheduler, ./scheduler.server.ts, writes those).
 */

type Executor = Db | Transaction<Database>;

export interface AutoTopup extends AutoTopupRule {
  id: string;
  accountSub: string;
  number: string;
  amount: number;
  monthlyMax: number;
  savedCardId: string;
  email: string;
  state: AutoTopupState;
  stopReason: string | null;
  failures: number;
  checkedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toAutoTopup(row: AutoTopupsTable): AutoTopup {
  return {
    id: row.id,
    accountSub: row.account_sub,
    number: row.number,
    amount: Number(row.amount),
    trigger: row.trigger,
    thresholdMb: row.threshold_mb === null ? null : Number(row.threshold_mb),
    monthlyMax: Number(row.monthly_max),
    savedCardId: row.saved_card_id,
    email: row.email,
    state: row.state,
    stopReason: row.stop_reason,
    failures: Number(row.failures),
    checkedAt: row.checked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface AutoTopupCharge {
  id: string;
  autoTopupId: string;
  number: string;
  period: string;
  amount: number;
  state: AutoTopupChargeState;
  topupId: string | null;
  attempts: number;
  dueAt: string;
  lastResult: string | null;
  createdAt: string;
  settledAt: string | null;
}

export function toCharge(row: AutoTopupChargesTable): AutoTopupCharge {
  return {
    id: row.id,
    autoTopupId: row.auto_topup_id,
    number: row.number,
    period: row.period,
    amount: Number(row.amount),
    state: row.state,
    topupId: row.topup_id,
    attempts: Number(row.attempts),
    dueAt: row.due_at,
    lastResult: row.last_result,
    createdAt: row.created_at,
    settledAt: row.settled_at,
  };
}

/** The account's automatic top-up of the line, on or off; null when never set. */
export async function findAutoTopup(
  db: Executor,
  accountSub: string,
  number: string,
): Promise<AutoTopup | null> {
  const row = await db
    .selectFrom("auto_topups")
    .selectAll()
    .where("account_sub", "=", accountSub)
    .where("number", "=", number)
    .executeTakeFirst();
  return row ? toAutoTopup(row) : null;
}

export async function findAutoTopupById(db: Executor, id: string): Promise<AutoTopup | null> {
  const row = await db
    .selectFrom("auto_topups")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toAutoTopup(row) : null;
}

export interface SaveAutoTopupInput extends AutoTopupRule {
  accountSub: string;
  number: string;
  amount: number;
  monthlyMax: number;
  savedCardId: string;
  email: string;
  now: Date;
}

/**
 * Switches the line's automatic top-up on with these settings (or changes them): active again
 * with no failures counted, whatever stopped it before. Its charges so far stay, so a period
 * already charged is not charged again (decision 0120).
 */
export async function saveAutoTopup(db: Db, input: SaveAutoTopupInput): Promise<AutoTopup> {
  const at = input.now.toISOString();
  const settings = {
    amount: input.amount,
    trigger: input.trigger,
    threshold_mb: input.trigger === "low_data" ? input.thresholdMb : null,
    monthly_max: input.monthlyMax,
    saved_card_id: input.savedCardId,
    email: input.email,
    state: "active" as const,
    stop_reason: null,
    failures: 0,
    updated_at: at,
  };
  const update = () =>
    db
      .updateTable("auto_topups")
      .set(settings)
      .where("account_sub", "=", input.accountSub)
      .where("number", "=", input.number)
      .executeTakeFirst();
  const updated = await update();
  if (Number(updated.numUpdatedRows) === 0) {
    try {
      await db
        .insertInto("auto_topups")
        .values({
          id: `ra_${randomBytes(12).toString("base64url")}`,
          account_sub: input.accountSub,
          number: input.number,
          ...settings,
          lease_owner: null,
          lease_until: null,
          checked_at: null,
          created_at: at,
        })
        .execute();
    } catch (error) {
      // The same form sent twice at once: the other request made it; these settings win.
      if (!isUniqueViolation(error)) throw error;
      await update();
    }
  }
  const saved = (await findAutoTopup(db, input.accountSub, input.number))!;
  // A period left unpaid (the bank wanted the customer, or two declines stopped it) is tried
  // again now with these settings: the same top-up, a new attempt (and idempotency key).
  await db
    .updateTable("auto_topup_charges")
    .set({ state: "retrying", due_at: at, updated_at: at, settled_at: null })
    .where("auto_topup_id", "=", saved.id)
    .where("state", "in", ["awaiting_customer", "failed"])
    .where("topup_id", "in", (eb) =>
      eb.selectFrom("topups").select("id").where("status", "=", "pending_payment"),
    )
    .execute();
  return saved;
}

/** The customer switches it off: answers whether it was on. */
export async function turnOffAutoTopup(
  db: Db,
  input: { accountSub: string; number: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("auto_topups")
    .set({ state: "off", updated_at: input.now.toISOString() })
    .where("account_sub", "=", input.accountSub)
    .where("number", "=", input.number)
    .where("state", "!=", "off")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The line's last charges, the newest first (its page lists them). */
export async function chargesOfAutoTopup(
  db: Executor,
  autoTopupId: string,
  limit = 5,
): Promise<AutoTopupCharge[]> {
  const rows = await db
    .selectFrom("auto_topup_charges")
    .selectAll()
    .where("auto_topup_id", "=", autoTopupId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map(toCharge);
}

export async function findCharge(db: Executor, id: string): Promise<AutoTopupCharge | null> {
  const row = await db
    .selectFrom("auto_topup_charges")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toCharge(row) : null;
}

/** The charge that made this top-up, if an automatic top-up made it. */
export async function chargeOfTopup(
  db: Executor,
  topupId: string,
): Promise<AutoTopupCharge | null> {
  const row = await db
    .selectFrom("auto_topup_charges")
    .selectAll()
    .where("topup_id", "=", topupId)
    .executeTakeFirst();
  return row ? toCharge(row) : null;
}

/** How many charges of this automatic top-up were paid in `now`'s month (Mexico City). */
export async function paidThisMonth(db: Executor, autoTopupId: string, now: Date): Promise<number> {
  const { from, to } = mexicoCityMonth(now);
  const row = await db
    .selectFrom("auto_topup_charges")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("auto_topup_id", "=", autoTopupId)
    .where("state", "=", "paid")
    .where("settled_at", ">=", from)
    .where("settled_at", "<", to)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The lines each of the account's cards pays automatically (active ones): card id → numbers. */
export async function linesPaidByCards(
  db: Executor,
  accountSub: string,
): Promise<Record<string, string[]>> {
  const rows = await db
    .selectFrom("auto_topups")
    .select(["saved_card_id", "number"])
    .where("account_sub", "=", accountSub)
    .where("state", "=", "active")
    .orderBy("number")
    .execute();
  const uses: Record<string, string[]> = {};
  for (const row of rows) (uses[row.saved_card_id] ??= []).push(row.number);
  return uses;
}
