import type { Db } from "~/db/db.server";
import type { LineSource } from "~/db/schema";
import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { assertLineNumber } from "./bss";

type Executor = Db | Transaction<Database>;

/** A line as the store knows it: the account it is in and how it came there. */
export interface AccountLine {
  number: string;
  source: LineSource;
  sourceRef: string | null;
  linkedAt: string;
}

export interface LinkLineInput {
  number: string;
  accountSub: string;
  source: LineSource;
  sourceRef?: string | null;
  now: Date;
}

/**
 * Puts a line in an account. A number is in at most one account: a line already in another one
 * stays there unless `move` says the number was just proved (a code sent to it), and the answer
 * says which account holds it afterwards. Linking again to the same account changes nothing.
 */
export async function linkLine(
  db: Executor,
  input: LinkLineInput,
  options: { move?: boolean } = {},
): Promise<{ linked: boolean; accountSub: string }> {
  assertLineNumber(input.number);
  const row = {
    number: input.number,
    account_sub: input.accountSub,
    source: input.source,
    source_ref: input.sourceRef ?? null,
    linked_at: input.now.toISOString(),
  };
  const inserted = await db
    .insertInto("lines")
    .values(row)
    .onConflict((conflict) => conflict.column("number").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
    return { linked: true, accountSub: input.accountSub };
  }
  const holder = await accountOfLine(db, input.number);
  if (holder === input.accountSub || holder === null) {
    return { linked: holder === input.accountSub, accountSub: holder ?? input.accountSub };
  }
  if (!options.move) return { linked: false, accountSub: holder };
  await db.updateTable("lines").set(row).where("number", "=", input.number).execute();
  return { linked: true, accountSub: input.accountSub };
}

/** The account a number is in, or null. */
export async function accountOfLine(db: Executor, number: string): Promise<string | null> {
  const row = await db
    .selectFrom("lines")
    .select("account_sub")
    .where("number", "=", number)
    .executeTakeFirst();
  return row?.account_sub ?? null;
}

/** The lines of an account, the first linked first. */
export async function linesOfAccount(db: Executor, accountSub: string): Promise<AccountLine[]> {
  const rows = await db
    .selectFrom("lines")
    .select(["number", "source", "source_ref", "linked_at"])
    .where("account_sub", "=", accountSub)
    .orderBy("linked_at")
    .orderBy("number")
    .execute();
  return rows.map((row) => ({
    number: row.number,
    source: row.source,
    sourceRef: row.source_ref,
    linkedAt: row.linked_at,
  }));
}

/** When the number joined this account (its last move into it), or null if it is not the account's. */
export async function lineJoinedAccountAt(
  db: Executor,
  accountSub: string,
  number: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("lines")
    .select("linked_at")
    .where("number", "=", number)
    .where("account_sub", "=", accountSub)
    .executeTakeFirst();
  return row?.linked_at ?? null;
}

/** Whether the number is one of this account's lines. */
export async function isLineOfAccount(
  db: Executor,
  accountSub: string,
  number: string,
): Promise<boolean> {
  return (await accountOfLine(db, number)) === accountSub;
}
