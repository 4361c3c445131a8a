import { createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import * as z from "zod";
import { isUniqueViolation, type Db } from "~/db/db.server";
import { nextFolio } from "~/db/folio-counter.server";
import type { Database, RegistrationChannel, RegistrationsTable } from "~/db/schema";
import { assertLineNumber } from "~/line/bss";
import { queueRegistrationAtBss } from "~/line/line-jobs.server";
import { createSealedBox } from "~/lib/sealed-box.server";
import { mexicoCityRange } from "~/lib/mexico-city-days";
import { maskCurp } from "./curp";
import { noticeEarlierContacts, type SmsNotice } from "./registration-notices.server";
import type { IdValidationOutcome, IdValidationResult } from "./id-validation";
import {
  holderIdentification,
  holderKey,
  holderName,
  holderSchema,
  portInHolderSchema,
  type HolderKind,
  type RegistrableHolder,
} from "./holder";
import {
  lineLimitFor,
  onlineAttemptsLeft,
  parseRegistrationFolio,
  REGISTRATION_FOLIO_SERIES,
  REGISTRATION_RULES,
} from "./registration-rules";

/**
 * The registrations of lines to their holders (issue 27, decision 0097): what the rule lets the
 * operator keep (KEPT_REGISTRATION_DATA) and what the operation needs (channel, account, history),
 * one current holder per line, at most 10 current lines per persona, and the failed validations
 * that end the online path. The holder's CURP, RFC or passport is sealed at rest; an HMAC of it
 * counts the holder's lines; lists show it masked. Nothing of the holder reaches an error.
 */

type Executor = Db | Transaction<Database>;

export type { RegistrationChannel };

/** The identity validation that allowed the registration: only a "valid" answer registers. */
export type ValidIdentity = IdValidationResult & { outcome: "valid" };

/** A registration as pages and operators see it: the holder's key only masked. */
export interface LineRegistration {
  id: string;
  /** "VIN-2026-000123". */
  folio: string;
  number: string;
  holderKind: HolderKind;
  holderName: string;
  /** "GOMC••••••••••••09": the first 4 and last 2 characters of the CURP, RFC or passport. */
  holderKeyMasked: string;
  identificationType: string;
  validation: ValidIdentity;
  channel: RegistrationChannel;
  accountSub: string | null;
  /** ISO instant; formatDateTime (app/lib/dates.ts) shows it in Mexico City time. */
  registeredAt: string;
  replacedAt: string | null;
  /** The id of the registration that replaced this one. */
  replacedBy: string | null;
}

/**
 * The keys of the holder's identity at rest, derived from the session secrets (newest first):
 * the newest seals and hashes, every listed one opens and is counted, so a rotation loses
 * nothing while the retired secret stays listed (run `rekeyRegistrations` before removing it).
 */
export interface RegistrationKeys {
  /** HMAC-SHA256 of the holder's key under each secret, newest first. */
  hashes(holderKey: string): string[];
  seal(holderKey: string, registrationId: string): string;
  open(sealed: string, registrationId: string): string | null;
}

export function createRegistrationKeys(secrets: readonly string[]): RegistrationKeys {
  if (secrets.length === 0) throw new Error("createRegistrationKeys needs at least one secret");
  const hmacKeys = secrets.map((secret) =>
    Buffer.from(
      hkdfSync("sha256", secret, "storefront-field", "registrations.holder_key_hash", 32),
    ),
  );
  const box = createSealedBox({
    secrets,
    salt: "storefront-field",
    purpose: "registrations.holder_key_sealed",
  });
  return {
    hashes: (key) =>
      hmacKeys.map((hmacKey) => createHmac("sha256", hmacKey).update(key).digest("base64url")),
    seal: (key, id) => box.seal(key, id),
    open: (sealed, id) => box.open(sealed, id),
  };
}

export interface RegisterLineInput {
  number: string;
  /** A holder as `holderSchema` (or, for a port-in, `portInHolderSchema`) parsed it; checked again here. */
  holder: RegistrableHolder;
  validation: ValidIdentity;
  channel: RegistrationChannel;
  /** The account that made it, if any. */
  accountSub: string | null;
  now?: Date;
}

export type RegisterLineOutcome =
  | {
      kind: "registered";
      registration: LineRegistration;
      /** False when the line was already registered, just so, to this holder. */
      created: boolean;
      /** The folio of the registration this one replaced (another holder's, or an older one). */
      replacedFolio: string | null;
      /**
       * The SMS notices to the lines the person already had (decision 0136), to send once the
       * registration is committed (sendSmsNotices); their e-mails are queued already.
       */
      smsNotices: SmsNotice[];
    }
  /** The holder already has `lines` current lines, the most `limit` allows: none is named. */
  | { kind: "line-limit"; limit: number; lines: number };

/**
 * Registers a line to its holder once an identity validation said "valid". A line already
 * registered to this holder with the same name and identification stays as it is (a retried
 * activation registers once); otherwise the new registration replaces the current one, both kept,
 * and a line the holder already had does not count twice. A persona who already holds the most
 * lines the rule allows is refused with how many, under concurrent registrations too.
 */
export async function registerLine(
  db: Db,
  keys: RegistrationKeys,
  input: RegisterLineInput,
): Promise<RegisterLineOutcome> {
  assertLineNumber(input.number);
  const parsed = registrableHolderSchema.safeParse(input.holder);
  // Neither the holder nor zod's issues go into the error: they may carry the CURP.
  if (!parsed.success) throw new TypeError("registerLine: the holder is not a checked holder");
  if (input.validation.outcome !== "valid") {
    throw new TypeError("registerLine: only a valid identity validation registers a line");
  }
  const holder = parsed.data;
  const key = holderKey(holder);
  const passport = passportKey(holder);
  const facts: HolderFacts = {
    kind: holder.holder_kind,
    name: holderName(holder),
    key,
    hashes: keys.hashes(key),
    passport,
    passportHashes: passport ? keys.hashes(passport) : [],
    identificationType: holderIdentification(holder),
    limit: lineLimitFor(holder.holder_kind),
  };
  // Two registrations of one number to different holders at once: the partial unique index
  // refuses the second's insert, which then runs again and replaces the first.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db
        .transaction()
        .execute((trx) => registerInTransaction(trx, keys, input, facts));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // PostgreSQL's message names the key (the number): it stays out of the error.
      if (attempt === MAX_ATTEMPTS) {
        throw new Error("registerLine: the line kept changing; try again");
      }
    }
  }
}

const registrableHolderSchema = z.union([holderSchema, portInHolderSchema]);

/** Each loser of a race for one number loses once per winner: a few holders at once at most. */
const MAX_ATTEMPTS = 5;

interface HolderFacts {
  kind: HolderKind;
  name: string;
  key: string;
  hashes: string[];
  /** A foreigner's "passport:<number>", which counts with the CURP temporal (decision 0136). */
  passport: string | null;
  passportHashes: string[];
  identificationType: string;
  limit: number | null;
}

async function registerInTransaction(
  trx: Transaction<Database>,
  keys: RegistrationKeys,
  input: RegisterLineInput,
  holder: HolderFacts,
): Promise<RegisterLineOutcome> {
  const now = (input.now ?? new Date()).toISOString();
  // First the holder's lock, then the count (decision 0097): without it two transactions on
  // PostgreSQL both count 9 and both insert. The folio counter's row lock comes later, and only
  // for a registration that is made; SQLite's BEGIN IMMEDIATE serialises everything anyway.
  if (holder.limit !== null) {
    // A foreigner's passport and CURP temporal are one person: both buckets, always in the same
    // order, so that two registrations never wait for each other's second lock.
    const buckets = [
      ...new Set([holder.key, holder.passport].filter((key) => key !== null).map(lockBucket)),
    ].sort((left, right) => left - right);
    for (const bucket of buckets) {
      await trx
        .insertInto("registration_locks")
        .values({ bucket, taken_at: now })
        .onConflict((conflict) => conflict.column("bucket").doUpdateSet({ taken_at: now }))
        .execute();
    }
  }
  const current = await trx
    .selectFrom("registrations")
    .selectAll()
    .where("number", "=", input.number)
    .where("replaced_at", "is", null)
    .executeTakeFirst();
  if (
    current &&
    holder.hashes.includes(current.holder_key_hash) &&
    current.holder_kind === holder.kind &&
    current.holder_name === holder.name &&
    current.identification_type === holder.identificationType
  ) {
    return {
      kind: "registered",
      registration: toRegistration(current),
      created: false,
      replacedFolio: null,
      smsNotices: [],
    };
  }
  const earlier = await personsCurrentRegistrations(trx, holder, input.number);
  if (holder.limit !== null && earlier.length >= holder.limit) {
    return { kind: "line-limit", limit: holder.limit, lines: earlier.length };
  }
  const id = randomBytes(16).toString("base64url");
  const row: RegistrationsTable = {
    id,
    folio: await nextRegistrationFolio(trx, input.now ?? new Date()),
    number: input.number,
    holder_kind: holder.kind,
    holder_name: holder.name,
    holder_key_hash: holder.hashes[0],
    holder_key_sealed: keys.seal(holder.key, id),
    holder_key_masked: maskCurp(holder.key),
    passport_hash: holder.passportHashes[0] ?? null,
    identification_type: holder.identificationType,
    validation_outcome: "valid",
    validation_source: input.validation.source,
    validation_reference: input.validation.reference,
    channel: input.channel,
    account_sub: input.accountSub,
    registered_at: now,
    replaced_at: null,
    replaced_by: null,
  };
  if (current) {
    // Kept, marked replaced: the partial unique index lets one current row per number.
    await trx
      .updateTable("registrations")
      .set({ replaced_at: now, replaced_by: id })
      .where("id", "=", current.id)
      .where("replaced_at", "is", null)
      .execute();
  }
  await trx.insertInto("registrations").values(row).execute();
  // Whoever holds the person's other lines hears of this one, with a way to say "no fui yo".
  const smsNotices = await noticeEarlierContacts(trx, {
    registrationId: id,
    accountSub: input.accountSub,
    earlier,
    now,
  });
  // The BSS lifts "sin registro" by it (decision 0100): told exactly when the registration exists.
  await queueRegistrationAtBss(trx, {
    number: input.number,
    folio: row.folio,
    now: input.now ?? new Date(),
  });
  return {
    kind: "registered",
    registration: toRegistration(row),
    created: true,
    replacedFolio: current?.folio ?? null,
    smsNotices,
  };
}

/** 4096 buckets: 12 bits of an unkeyed SHA-256, too few to tell a holder, stable across rotations. */
function lockBucket(holderKey: string): number {
  return createHash("sha256").update(holderKey).digest().readUInt16BE(0) & 0x0fff;
}

async function nextRegistrationFolio(trx: Transaction<Database>, date: Date): Promise<string> {
  const folio = await nextFolio(trx, REGISTRATION_FOLIO_SERIES, date);
  if (!parseRegistrationFolio(folio)) {
    throw new RangeError("The registration folios of this year have run out (999999)");
  }
  return folio;
}

/**
 * A foreigner's passport number alone, for counting: the nationality is what was typed, and one
 * passport is one person whichever country the form was told.
 */
export function passportKey(holder: RegistrableHolder): string | null {
  return holder.holder_kind === "extranjera" ? `passport:${holder.passport_number}` : null;
}

/** Rounds of "and whoever those registrations also name" before the count stops widening. */
const MAX_PERSON_ROUNDS = 4;

/**
 * The current registrations of one person, other than `exceptNumber`'s (decision 0136): those
 * under any of the person's keys (the CURP, RFC or nationality:passport kept as the holder's key;
 * a foreigner's passport number alone), then those under any key the registrations found name
 * too — a foreigner registered once with the passport and the CURP temporal links the lines
 * registered with either alone.
 */
async function personsCurrentRegistrations(
  db: Executor,
  person: { hashes: readonly string[]; passportHashes: readonly string[] },
  exceptNumber: string | null,
): Promise<Array<{ id: string; number: string; account_sub: string | null }>> {
  const holderHashes = new Set(person.hashes);
  const passportHashes = new Set(person.passportHashes);
  let found: Array<{
    id: string;
    number: string;
    account_sub: string | null;
    holder_key_hash: string;
    passport_hash: string | null;
  }> = [];
  for (let round = 0; round < MAX_PERSON_ROUNDS; round += 1) {
    let query = db
      .selectFrom("registrations")
      .select(["id", "number", "account_sub", "holder_key_hash", "passport_hash"])
      .where("replaced_at", "is", null)
      .where((eb) =>
        passportHashes.size > 0
          ? eb.or([
              eb("holder_key_hash", "in", [...holderHashes]),
              eb("passport_hash", "in", [...passportHashes]),
            ])
          : eb("holder_key_hash", "in", [...holderHashes]),
      );
    if (exceptNumber !== null) query = query.where("number", "!=", exceptNumber);
    found = await query.orderBy("registered_at").execute();
    const before = holderHashes.size + passportHashes.size;
    for (const row of found) {
      holderHashes.add(row.holder_key_hash);
      if (row.passport_hash) passportHashes.add(row.passport_hash);
    }
    if (holderHashes.size + passportHashes.size === before) break;
  }
  return found.map(({ id, number, account_sub }) => ({ id, number, account_sub }));
}

async function countCurrentLines(
  db: Executor,
  hashes: readonly string[],
  exceptNumber: string | null,
): Promise<number> {
  let query = db
    .selectFrom("registrations")
    .select((eb) => eb.fn.countAll<number | string>().as("lines"))
    .where("holder_key_hash", "in", hashes)
    .where("replaced_at", "is", null);
  if (exceptNumber !== null) query = query.where("number", "!=", exceptNumber);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.lines);
}

/** How many lines are registered now to the holder with this key (CURP, RFC, nationality:passport). */
export function currentLinesOfHolder(
  db: Executor,
  keys: RegistrationKeys,
  holderKeyValue: string,
): Promise<number> {
  return countCurrentLines(db, keys.hashes(holderKeyValue), null);
}

/**
 * How many lines one person holds now, counted as the 10-line limit counts them: every key of the
 * holder and every registration linked to them (a foreigner's passport and CURP temporal).
 */
export async function currentLinesOfPerson(
  db: Executor,
  keys: RegistrationKeys,
  holder: RegistrableHolder,
): Promise<number> {
  const passport = passportKey(holder);
  const registrations = await personsCurrentRegistrations(
    db,
    {
      hashes: keys.hashes(holderKey(holder)),
      passportHashes: passport ? keys.hashes(passport) : [],
    },
    null,
  );
  return registrations.length;
}

/** The current registration of a line, or null when it has none. */
export async function currentRegistration(
  db: Executor,
  number: string,
): Promise<LineRegistration | null> {
  assertLineNumber(number);
  const row = await db
    .selectFrom("registrations")
    .selectAll()
    .where("number", "=", number)
    .where("replaced_at", "is", null)
    .executeTakeFirst();
  return row ? toRegistration(row) : null;
}

/** A registration by its id (the page that just made it, its e-mail), or null. */
export async function findRegistration(db: Executor, id: string): Promise<LineRegistration | null> {
  const row = await db
    .selectFrom("registrations")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toRegistration(row) : null;
}

/** Every registration a line has had, the newest first. */
export async function registrationHistory(
  db: Executor,
  number: string,
): Promise<LineRegistration[]> {
  assertLineNumber(number);
  const rows = await db
    .selectFrom("registrations")
    .selectAll()
    .where("number", "=", number)
    .orderBy("registered_at", "desc")
    .orderBy("folio", "desc")
    .execute();
  return rows.map(toRegistration);
}

export interface RegistrationListFilter {
  /** Mexico City days (YYYY-MM-DD), both included; either may be left open. */
  from?: string;
  to?: string;
  /** Only the current registrations (the default), or the replaced ones too. */
  includeReplaced?: boolean;
}

/** Registrations by the day they were made, oldest first, for the operator (keys masked). */
export async function listRegistrations(
  db: Executor,
  filter: RegistrationListFilter = {},
): Promise<LineRegistration[]> {
  const { fromInstant, toInstant } = mexicoCityRange(filter);
  let query = db.selectFrom("registrations").selectAll();
  if (fromInstant) query = query.where("registered_at", ">=", fromInstant);
  if (toInstant) query = query.where("registered_at", "<", toInstant);
  if (!filter.includeReplaced) query = query.where("replaced_at", "is", null);
  const rows = await query.orderBy("registered_at").orderBy("folio").execute();
  return rows.map(toRegistration);
}

/**
 * The whole CURP, RFC or nationality:passport of a registration: for the operator's CSV only,
 * never a page, a log or an e-mail. Null when the row is unknown or sealed by a retired secret.
 */
export async function revealHolderKey(
  db: Executor,
  keys: RegistrationKeys,
  registrationId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("registrations")
    .select("holder_key_sealed")
    .where("id", "=", registrationId)
    .executeTakeFirst();
  return row ? keys.open(row.holder_key_sealed, registrationId) : null;
}

/**
 * Seals and hashes again, with the newest secret, every registration still under an older one:
 * run it after adding a new secret to SESSION_SECRET and before removing the old one, or the
 * registrations it keyed can neither be read nor counted. Returns how many rows it rewrote.
 */
export async function rekeyRegistrations(db: Db, keys: RegistrationKeys): Promise<number> {
  let rewritten = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("registrations")
      .select(["id", "holder_key_hash", "holder_key_sealed", "passport_hash"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    if (rows.length === 0) return rewritten;
    for (const row of rows) {
      const key = keys.open(row.holder_key_sealed, row.id);
      if (key === null) continue;
      const hash = keys.hashes(key)[0];
      // A foreigner without a CURP is kept as "nationality:passport": its passport counts alone
      // (decision 0136), filled here for rows registered before. A foreigner who gave a CURP
      // too keeps the passport's hash it was registered with (the passport is not kept).
      const passport = /^[A-Z]{2}:(.+)$/.exec(key);
      const passportHash = passport ? keys.hashes(`passport:${passport[1]}`)[0] : row.passport_hash;
      if (hash === row.holder_key_hash && passportHash === row.passport_hash) continue;
      await db
        .updateTable("registrations")
        .set({
          holder_key_hash: hash,
          holder_key_sealed: keys.seal(key, row.id),
          passport_hash: passportHash,
        })
        .where("id", "=", row.id)
        .execute();
      rewritten += 1;
    }
    after = rows[rows.length - 1].id;
  }
}

function toRegistration(row: RegistrationsTable): LineRegistration {
  return {
    id: row.id,
    folio: row.folio,
    number: row.number,
    holderKind: row.holder_kind,
    holderName: row.holder_name,
    holderKeyMasked: row.holder_key_masked,
    identificationType: row.identification_type,
    validation: {
      outcome: row.validation_outcome,
      source: row.validation_source,
      reference: row.validation_reference,
    },
    channel: row.channel,
    accountSub: row.account_sub,
    registeredAt: row.registered_at,
    replacedAt: row.replaced_at,
    replacedBy: row.replaced_by,
  };
}

/** What an identity validation said. */
export type ValidationAttemptOutcome = IdValidationOutcome;

/** Records an identity validation of a number: only the number, what it said, how and when. */
export async function recordValidationAttempt(
  db: Executor,
  attempt: {
    number: string;
    outcome: ValidationAttemptOutcome;
    channel: RegistrationChannel;
    now?: Date;
  },
): Promise<void> {
  assertLineNumber(attempt.number);
  await db
    .insertInto("registration_attempts")
    .values({
      id: randomBytes(16).toString("base64url"),
      number: attempt.number,
      outcome: attempt.outcome,
      channel: attempt.channel,
      attempted_at: (attempt.now ?? new Date()).toISOString(),
    })
    .execute();
}

/** When the online validations of a number failed since `since` (ISO instants, oldest first). */
export async function failedAttemptsSince(
  db: Executor,
  number: string,
  since: Date,
): Promise<string[]> {
  assertLineNumber(number);
  const rows = await db
    .selectFrom("registration_attempts")
    .select("attempted_at")
    .where("number", "=", number)
    .where("channel", "=", "online")
    .where("outcome", "!=", "valid")
    .where("attempted_at", ">", since.toISOString())
    .orderBy("attempted_at")
    .execute();
  return rows.map((row) => row.attempted_at);
}

/** How many online validations the number has left now (3 failures in 24 hours end them). */
export async function onlineAttemptsLeftFor(
  db: Executor,
  number: string,
  now: Date = new Date(),
): Promise<number> {
  const windowStart = new Date(
    now.getTime() - REGISTRATION_RULES.onlineAttemptsWindowHours * 3_600_000,
  );
  return onlineAttemptsLeft(await failedAttemptsSince(db, number, windowStart), now);
}
