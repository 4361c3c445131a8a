import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The address of each account as it was when the customer last signed in (decision 0094): the
// store otherwise knows it only while the customer is signed in (Cognito keeps it), and the
// running-out sweep writes to accounts nobody is looking at.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_emails")
    /** The account's Cognito `sub`. */
    .addColumn("account_sub", "text", (column) => column.primaryKey())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("recorded_at", "text", (column) => column.notNull())
    .execute();
  // Old codes are deleted by their expiry (line-codes.server.ts), which no index served.
  await db.schema
    .createIndex("line_codes_by_expiry")
    .on("line_codes")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("line_codes_by_expiry").execute();
  await db.schema.dropTable("account_emails").execute();
}
