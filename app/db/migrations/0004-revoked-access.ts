import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("revoked_access")
    .addColumn("access_id", "text", (column) => column.primaryKey())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .execute();
  // Expired rows are swept by date.
  await db.schema
    .createIndex("revoked_access_by_expiry")
    .on("revoked_access")
    .column("expires_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("revoked_access").execute();
}
