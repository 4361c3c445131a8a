import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The online alternative to a store when a line's identity validation failed (issue 48,
// decision 0140): a customer asks for an assisted validation, the operator's staff call back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("assisted_validations")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "VAL-2026-000001": what the customer is told and the operator's staff quote. */
    .addColumn("folio", "text", (column) => column.notNull().unique())
    /** The form key it was sent with: the same form sent again finds this request. */
    .addColumn("idempotency_key", "text", (column) => column.notNull().unique())
    /** The line to register (10 digits). */
    .addColumn("number", "text", (column) => column.notNull())
    /** How to reach the customer: "phone" (10 digits) or "email". */
    .addColumn("contact_kind", "text", (column) => column.notNull())
    .addColumn("contact", "text", (column) => column.notNull())
    /** The time window chosen: "manana", "tarde" or "noche" (Mexico City time). */
    .addColumn("time_window", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("assisted_validations_by_created_at")
    .on("assisted_validations")
    .column("created_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("assisted_validations").execute();
}
