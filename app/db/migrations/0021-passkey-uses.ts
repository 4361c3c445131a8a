import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// When each of an account's passkeys last signed it in (issue 28, decision 0122): Cognito's
// ListWebAuthnCredentials tells a passkey's name and creation, not its last use.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkey_uses")
    .addColumn("account_sub", "text", (column) => column.notNull())
    /** The credential's id as Cognito lists it (base64url): a public identifier, no secret. */
    .addColumn("credential_id", "text", (column) => column.notNull())
    .addColumn("last_used_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("passkey_uses_pk", ["account_sub", "credential_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("passkey_uses").execute();
}
