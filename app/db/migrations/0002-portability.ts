import { sql, type Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("portability_requests")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("folio", "text", (column) => column.notNull().unique())
    .addColumn("idempotency_key", "text", (column) => column.notNull().unique())
    .addColumn("phone_number", "text", (column) => column.notNull())
    .addColumn("nip_sealed", "text", (column) => column.notNull())
    .addColumn("full_name", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("curp", "text", (column) => column.notNull())
    .addColumn("current_carrier", "text", (column) => column.notNull())
    .addColumn("iccid", "text")
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("terms_accepted_at", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("portability_requests_by_phone")
    .on("portability_requests")
    .columns(["phone_number", "created_at"])
    .execute();
  // At most one open request per number, even when two different forms race each other.
  await db.schema
    .createIndex("portability_requests_one_open")
    .on("portability_requests")
    .column("phone_number")
    .unique()
    .where(sql.ref("status"), "in", sql`('received', 'in_progress')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("portability_requests").execute();
}
