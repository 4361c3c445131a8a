import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The holder given at checkout, kept until the order's lines are registered to it, and each
// activated line still waiting for its registration (issue 27, decision 0101).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("order_holders")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** The order's unguessable reference: one holder per order. */
    .addColumn("order_ref", "text", (column) => column.notNull().unique())
    /** "fisica" or "extranjera". */
    .addColumn("holder_kind", "text", (column) => column.notNull())
    /** The whole holder as the form gave it (name, CURP or passport…), sealed to this row. */
    .addColumn("holder_sealed", "text", (column) => column.notNull())
    /** What lists show: the first 4 and last 2 characters of the CURP or passport. */
    .addColumn("holder_key_masked", "text", (column) => column.notNull())
    /** The order's SIMs not yet registered or refused: the row goes when none is left. */
    .addColumn("lines_left", "integer", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("pending_registrations")
    /** The activated line: one waiting registration per number. */
    .addColumn("number", "text", (column) => column.primaryKey())
    /** "order" (its holder in order_holders) or "portability" (the request's name and CURP). */
    .addColumn("source", "text", (column) => column.notNull())
    .addColumn("source_ref", "text", (column) => column.notNull())
    .addColumn("account_sub", "text")
    /** "pending": being retried; "suspended": refused for good or given up, the line has none. */
    .addColumn("state", "text", (column) => column.notNull())
    /** Why it is suspended (or what the last attempt met): never anything of the holder. */
    .addColumn("reason", "text")
    .addColumn("attempts", "integer", (column) => column.notNull())
    .addColumn("next_attempt_at", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("pending_registrations_due")
    .on("pending_registrations")
    .columns(["state", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("pending_registrations_by_source")
    .on("pending_registrations")
    .columns(["source", "source_ref"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_registrations").execute();
  await db.schema.dropTable("order_holders").execute();
}
