import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Db } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { enqueueMail } from "~/mail-queue/mail-queue.server";

/**
 * The notices of a new registration (issue 47, decision 0136): every line registered to a person
 * is told to the contacts of that person's registrations already there — the e-mail of the
 * account that made one, else an SMS to each line registered — with a link to say "no fui yo",
 * which the operator lists (`npm run ops -- registros --estado disputada`). The link carries an
 * opaque token (only its SHA-256 is kept); neither it nor the message names the CURP.
 */

type Executor = Db | Transaction<Database>;

/** An SMS notice to send once the registration is committed (registration-notice-sms.server.ts). */
export interface SmsNotice {
  to: string;
  token: string;
}

/** A person's registrations have at most 10 lines; a company's, a list this long at most. */
const MAX_SMS_NOTICES = 10;

const tokenHash = (token: string) => createHash("sha256").update(token).digest("base64url");

/**
 * 16 random bytes in hex: only the shape of a token reaches the database, and an SMS keeps to
 * GSM-7 (a base64url "_" would make it UCS-2, 70 characters).
 */
const TOKEN = /^[0-9a-f]{32}$/;

async function newNotice(
  trx: Executor,
  registrationId: string,
  channel: "email" | "sms",
  now: string,
): Promise<string> {
  const token = randomBytes(16).toString("hex");
  await trx
    .insertInto("registration_notices")
    .values({
      id: randomBytes(12).toString("base64url"),
      token_hash: tokenHash(token),
      registration_id: registrationId,
      channel,
      created_at: now,
      disputed_at: null,
    })
    .execute();
  return token;
}

/**
 * In the registration's transaction: a notice for each contact of the person's earlier
 * registrations. Their accounts' e-mails are queued here (so they exist exactly when the
 * registration does); the SMS of lines without an account e-mail are returned, to be sent once
 * committed. An account that registers while signed in is not told of its own registration.
 */
export async function noticeEarlierContacts(
  trx: Transaction<Database>,
  input: {
    registrationId: string;
    accountSub: string | null;
    earlier: ReadonlyArray<{ number: string; account_sub: string | null }>;
    now: string;
  },
): Promise<SmsNotice[]> {
  const others = input.earlier.filter(
    (registration) => input.accountSub === null || registration.account_sub !== input.accountSub,
  );
  if (others.length === 0) return [];
  const subs = [...new Set(others.flatMap((row) => (row.account_sub ? [row.account_sub] : [])))];
  const emails = new Map(
    subs.length === 0
      ? []
      : (
          await trx
            .selectFrom("account_emails")
            .select(["account_sub", "email"])
            .where("account_sub", "in", subs)
            .execute()
        ).map((row) => [row.account_sub, row.email]),
  );
  const addresses = new Set<string>();
  const numbers = new Set<string>();
  for (const row of others) {
    const email = row.account_sub ? emails.get(row.account_sub) : undefined;
    if (email) addresses.add(email.toLowerCase());
    else numbers.add(row.number);
  }
  for (const address of addresses) {
    const token = await newNotice(trx, input.registrationId, "email", input.now);
    await enqueueMail(trx, {
      dedupeKey: `registration-notice:${input.registrationId}:${address}`,
      to: address,
      template: "registration_notice",
      data: { registrationId: input.registrationId, token },
    });
  }
  const sms: SmsNotice[] = [];
  for (const number of [...numbers].slice(0, MAX_SMS_NOTICES)) {
    sms.push({ to: number, token: await newNotice(trx, input.registrationId, "sms", input.now) });
  }
  return sms;
}

/** What the "no fui yo" page shows of the registration a notice told of. */
export interface NoticeView {
  registrationId: string;
  disputedAt: string | null;
}

/** The notice a link's token names, or null (an unknown or malformed token). */
export async function findNotice(db: Executor, token: string): Promise<NoticeView | null> {
  if (!TOKEN.test(token)) return null;
  const row = await db
    .selectFrom("registration_notices")
    .select(["registration_id", "disputed_at"])
    .where("token_hash", "=", tokenHash(token))
    .executeTakeFirst();
  return row ? { registrationId: row.registration_id, disputedAt: row.disputed_at } : null;
}

/** Records "no fui yo" once (a second press keeps the first time). False for an unknown token. */
export async function disputeNotice(db: Executor, token: string, now: Date = new Date()) {
  if (!TOKEN.test(token)) return false;
  const hash = tokenHash(token);
  await db
    .updateTable("registration_notices")
    .set({ disputed_at: now.toISOString() })
    .where("token_hash", "=", hash)
    .where("disputed_at", "is", null)
    .execute();
  return (await findNotice(db, token)) !== null;
}

/** The registrations someone said "no fui yo" about, the newest dispute first, for the operator. */
export async function disputedRegistrationIds(
  db: Executor,
): Promise<Array<{ registrationId: string; disputedAt: string }>> {
  const rows = await db
    .selectFrom("registration_notices")
    .select(["registration_id", "disputed_at"])
    .where("disputed_at", "is not", null)
    .orderBy("disputed_at", "desc")
    .execute();
  const seen = new Set<string>();
  const disputes: Array<{ registrationId: string; disputedAt: string }> = [];
  for (const row of rows) {
    if (seen.has(row.registration_id)) continue;
    seen.add(row.registration_id);
    disputes.push({ registrationId: row.registration_id, disputedAt: row.disputed_at! });
  }
  return disputes;
}
