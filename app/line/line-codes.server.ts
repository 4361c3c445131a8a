import { createHash, createHmac, hkdfSync, randomInt, timingSafeEqual } from "node:crypto";
import type { Db } from "~/db/db.server";
import type { LineCodePurpose } from "~/db/schema";
import { assertLineNumber } from "./bss";
import {
  LINE_CODE_KEPT_MS,
  LINE_CODE_LIFETIME_MS,
  LINE_CODE_MAX_ATTEMPTS,
  LINE_CODE_PATTERN,
} from "./line-code";

/**
 * The codes sent by SMS to prove a number: to add the line to an account ("add-line"), to see
 * its balance without one ("balance") or to register its holder ("registration"). Whoever can
 * read the SMS holds the line.
 *
 * - Six digits, good for LINE_CODE_LIFETIME_MS, for the holder that asked (an account, or one
 *   browser) and that number only; only the newest code of a holder and number counts.
 * - LINE_CODE_MAX_ATTEMPTS tries each, right or wrong, counted by one conditional update (two
 *   tries at once cannot both take the last one); then a new code must be asked for.
 * - Used once: the right code is spent by a conditional update, so of two at once one proves.
 * - Only an HMAC of the code is kept, keyed from the session secrets (never in the database):
 *   a copy of the database cannot be searched for the million possible codes.
 */

/** Six random digits, leading zeros kept. */
export function newLineCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export interface LineCodeHasher {
  /** With the newest secret. */
  hash(id: string, code: string): string;
  /** With any listed secret, so a rotation does not void the codes just sent. */
  matches(id: string, code: string, stored: string): boolean;
}

export function createLineCodeHasher(secrets: readonly string[]): LineCodeHasher {
  if (secrets.length === 0) throw new Error("createLineCodeHasher needs at least one secret");
  const keys = secrets.map((secret) =>
    Buffer.from(hkdfSync("sha256", secret, "storefront-line-code", "line_codes.code_hash", 32)),
  );
  const digest = (key: Buffer, id: string, code: string) =>
    createHmac("sha256", key).update(`${id}\n${code}`).digest();
  return {
    hash: (id, code) => digest(keys[0]!, id, code).toString("base64url"),
    matches(id, code, stored) {
      const given = Buffer.from(stored, "base64url");
      return keys.some((key) => {
        const expected = digest(key, id, code);
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
    },
  };
}

/**
 * A code's id: one per purpose, form view and number, so that the same form sent twice (a double
 * click, a retried request) finds the code the first sending made and sends no second SMS.
 */
export function lineCodeId(purpose: LineCodePurpose, formNonce: string, number: string): string {
  return createHash("sha256")
    .update(`${purpose}\n${formNonce}\n${number}`)
    .digest("base64url")
    .slice(0, 32);
}

export interface IssueLineCodeInput {
  id: string;
  purpose: LineCodePurpose;
  number: string;
  holder: string;
  now: Date;
  hasher: LineCodeHasher;
  /** Tests choose it; otherwise random. */
  code?: string;
}

/**
 * Records a new code: answers it (for the SMS, never for a log) when this id is new, or
 * `issued: false` when a code with this id exists (the same form sent again: nothing to send).
 * Codes expired more than LINE_CODE_KEPT_MS ago go at the same time (as the sign-outs' records
 * do, ~/auth/revoked-access.server.ts): the table holds about a day of codes, whatever the traffic.
 */
export async function issueLineCode(
  db: Db,
  input: IssueLineCodeInput,
): Promise<{ issued: true; code: string } | { issued: false }> {
  assertLineNumber(input.number);
  const code = input.code ?? newLineCode();
  if (!LINE_CODE_PATTERN.test(code)) throw new TypeError("a code is six digits");
  await deleteStaleLineCodes(db, input.now);
  const inserted = await db
    .insertInto("line_codes")
    .values({
      id: input.id,
      purpose: input.purpose,
      number: input.number,
      holder: input.holder,
      code_hash: input.hasher.hash(input.id, code),
      attempts: 0,
      created_at: input.now.toISOString(),
      expires_at: new Date(input.now.getTime() + LINE_CODE_LIFETIME_MS).toISOString(),
      used_at: null,
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1
    ? { issued: true, code }
    : { issued: false };
}

/** Deletes the codes, used or not, that expired more than LINE_CODE_KEPT_MS before `now`. */
export async function deleteStaleLineCodes(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - LINE_CODE_KEPT_MS).toISOString();
  await db.deleteFrom("line_codes").where("expires_at", "<", before).execute();
}

/** Whether a code with this id was made (the form that asks for it was sent before). */
export async function lineCodeExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom("line_codes")
    .select("id")
    .where("id", "=", id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets a code that could not be sent, so that sending the form again makes a new one. */
export async function withdrawLineCode(db: Db, id: string): Promise<void> {
  await db.deleteFrom("line_codes").where("id", "=", id).where("used_at", "is", null).execute();
}

interface CodeOf {
  holder: string;
  purpose: LineCodePurpose;
  number: string;
}

async function newestCode(db: Db, of: CodeOf) {
  return db
    .selectFrom("line_codes")
    .select(["id", "code_hash", "attempts", "expires_at", "used_at"])
    .where("holder", "=", of.holder)
    .where("purpose", "=", of.purpose)
    .where("number", "=", of.number)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

/** A code the holder may still type: its number, when it expires and the tries left. */
export interface PendingLineCode {
  number: string;
  expiresAt: string;
  attemptsLeft: number;
}

/** The holder's newest code of this purpose that can still be typed, or null. */
export async function pendingLineCode(
  db: Db,
  of: { holder: string; purpose: LineCodePurpose },
  now: Date,
): Promise<PendingLineCode | null> {
  const row = await db
    .selectFrom("line_codes")
    .select(["number", "attempts", "expires_at"])
    .where("holder", "=", of.holder)
    .where("purpose", "=", of.purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  // Only the newest code of that number counts: an older one of another number is shown.
  const newest = await newestCode(db, { ...of, number: row.number });
  const attemptsLeft = LINE_CODE_MAX_ATTEMPTS - Number(row.attempts);
  if (!newest || newest.used_at !== null || attemptsLeft <= 0) return null;
  return { number: row.number, expiresAt: row.expires_at, attemptsLeft };
}

export type LineCodeCheck =
  /** The right code, now spent: the holder holds the line. `codeId` names the proof. */
  | { kind: "proved"; codeId: string }
  /** Wrong; `attemptsLeft` more tries of this code (0: a new code must be asked for). */
  | { kind: "wrong"; attemptsLeft: number }
  | { kind: "expired" }
  /** Its tries are used up: a new code must be asked for. */
  | { kind: "exhausted" }
  /** No code was asked for (or the newest was already used). */
  | { kind: "none" };

/** Checks a code typed for the holder's newest code of this number, and counts the try. */
export async function checkLineCode(
  db: Db,
  input: CodeOf & { code: string; now: Date; hasher: LineCodeHasher },
): Promise<LineCodeCheck> {
  const row = await newestCode(db, input);
  if (!row || row.used_at !== null) return { kind: "none" };
  if (row.expires_at <= input.now.toISOString()) return { kind: "expired" };
  const counted = await db
    .updateTable("line_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .where("attempts", "<", LINE_CODE_MAX_ATTEMPTS)
    .returning("attempts")
    .executeTakeFirst();
  if (!counted) return { kind: "exhausted" };
  const attemptsLeft = LINE_CODE_MAX_ATTEMPTS - Number(counted.attempts);
  if (!input.hasher.matches(row.id, input.code, row.code_hash)) {
    return { kind: "wrong", attemptsLeft };
  }
  const spent = await db
    .updateTable("line_codes")
    .set({ used_at: input.now.toISOString() })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1 ? { kind: "proved", codeId: row.id } : { kind: "none" };
}
