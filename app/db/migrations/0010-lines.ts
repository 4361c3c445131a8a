import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The store's side of the customer's line (app/line/, issue 26): which account a line is in,
// the work queued for the BSS, the SMS codes that prove a number, and the notices sent. The
// line itself (status, package, balances, usage) lives in the BSS, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A line in an account: a number is in at most one account (its primary key).
  await db.schema
    .createTable("lines")
    .addColumn("number", "text", (column) => column.primaryKey())
    /** The Cognito `sub` of the account the line is in. */
    .addColumn("account_sub", "text", (column) => column.notNull())
    /** How it came: "esim", "sim" (activated with its ICCID), "portability" or "added" (SMS code). */
    .addColumn("source", "text", (column) => column.notNull())
    /** The order line, portability request or code it came from. */
    .addColumn("source_ref", "text")
    .addColumn("linked_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("lines_by_account").on("lines").column("account_sub").execute();

  // Work for the BSS, queued in the transaction that decided it (a payment approved, a SIM
  // installed, a portability completed) and done by a worker with retries: applied once each.
  await db.schema
    .createTable("line_jobs")
    /** "topup:<top-up id>", "activation:<order line id>:<n>", "portability:<request id>". */
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "apply-topup" or "activate-line". */
    .addColumn("kind", "text", (column) => column.notNull())
    /** What the BSS call needs (JSON). */
    .addColumn("payload", "text", (column) => column.notNull())
    /** "pending", "done" or "refused" (the BSS said no: the operator looks at it). */
    .addColumn("state", "text", (column) => column.notNull())
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    /** Claimed by a worker: moved past the claim's lease, as the mail queue does. */
    .addColumn("next_attempt_at", "text", (column) => column.notNull())
    .addColumn("last_error", "text")
    /** What the BSS answered (JSON): the top-up's reference, the activated number. */
    .addColumn("result", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("done_at", "text")
    .execute();
  await db.schema
    .createIndex("line_jobs_due")
    .on("line_jobs")
    .columns(["state", "next_attempt_at"])
    .execute();

  // A code sent by SMS to prove a number: to add it to an account, or to see its balance.
  // Only a hash of the code is kept.
  await db.schema
    .createTable("line_codes")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "add-line", "balance" or "registration" (a plain text column: new purposes need no migration). */
    .addColumn("purpose", "text", (column) => column.notNull())
    .addColumn("number", "text", (column) => column.notNull())
    /** Who asked: an account's `sub`, or a browser's random id. */
    .addColumn("holder", "text", (column) => column.notNull())
    .addColumn("code_hash", "text", (column) => column.notNull())
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("line_codes_by_holder")
    .on("line_codes")
    .columns(["holder", "purpose", "number"])
    .execute();

  // "Your line is running out", sent once per package in force.
  await db.schema
    .createTable("line_notices")
    .addColumn("number", "text", (column) => column.notNull())
    /** The package it was about: "<offer id>@<its start>". */
    .addColumn("package_key", "text", (column) => column.notNull())
    .addColumn("sent_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("line_notices_pk", ["number", "package_key"])
    .execute();
}
