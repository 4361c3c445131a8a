import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// When each account last signed out of every session (issue 47, decision 0134): a password reset
// or "Cerrar sesión en todos los dispositivos". Every session authenticated before that time
// ends on its next request, copies of its cookie included.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_sign_outs")
    /** The account's e-mail address in lower case: all a password reset knows of the account. */
    .addColumn("account_email", "text", (column) => column.primaryKey())
    .addColumn("signed_out_at", "text", (column) => column.notNull())
    .execute();
  // Rows older than the longest session are swept by date.
  await db.schema
    .createIndex("account_sign_outs_by_time")
    .on("account_sign_outs")
    .column("signed_out_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_sign_outs").execute();
}
