import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The BSS simulator's own records (app/line/simulator.server.ts, decision 0088), as the
// operator's BSS would keep them on its side: nothing else in the store writes these tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("bss_sim_lines")
    .addColumn("number", "text", (column) => column.primaryKey())
    .addColumn("iccid", "text", (column) => column.notNull().unique())
    .addColumn("status", "text", (column) => column.notNull())
    /** The data granted since the line last lapsed, and what was used of it (MB). */
    .addColumn("data_total_mb", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("data_used_mb", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();

  // Every package a line was given, back to back when bought before the vigencia ended.
  await db.schema
    .createTable("bss_sim_packages")
    .addColumn("number", "text", (column) =>
      column.notNull().references("bss_sim_lines.number").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    /** "activation:<external id>" or "topup:<top-up id>". */
    .addColumn("applied_by", "text", (column) => column.notNull())
    .addColumn("offer_id", "text", (column) => column.notNull())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("starts_at", "text", (column) => column.notNull())
    .addColumn("ends_at", "text", (column) => column.notNull())
    /** null: unlimited within fair use; 0: none. */
    .addColumn("minutes_allowance", "integer")
    .addColumn("sms_allowance", "integer")
    .addColumn("unlimited_social", "integer", (column) => column.notNull())
    .addColumn("minutes_used", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("sms_used", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("social_used_mb", "integer", (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("bss_sim_packages_pk", ["number", "position"])
    .execute();

  await db.schema
    .createTable("bss_sim_usage")
    .addColumn("number", "text", (column) =>
      column.notNull().references("bss_sim_lines.number").onDelete("cascade"),
    )
    /** YYYY-MM-DD in Mexico City. */
    .addColumn("day", "text", (column) => column.notNull())
    .addColumn("data_mb", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("minutes", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("sms", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("social_mb", "integer", (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("bss_sim_usage_pk", ["number", "day"])
    .execute();

  // A top-up applied: its id is the key, so that applying it again changes nothing.
  await db.schema
    .createTable("bss_sim_topups")
    .addColumn("topup_id", "text", (column) => column.primaryKey())
    .addColumn("number", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("offer_id", "text", (column) => column.notNull())
    .addColumn("reference", "text", (column) => column.notNull().unique())
    .addColumn("applied_at", "text", (column) => column.notNull())
    .execute();

  // A line activated: the caller's reference is the key, so that a repeat answers the same number.
  await db.schema
    .createTable("bss_sim_activations")
    .addColumn("external_id", "text", (column) => column.primaryKey())
    .addColumn("number", "text", (column) => column.notNull())
    .addColumn("iccid", "text", (column) => column.notNull())
    .addColumn("offer_id", "text", (column) => column.notNull())
    /** The ported number asked for; null when the simulator assigned one. */
    .addColumn("requested_number", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("bss_sim_activations").execute();
  await db.schema.dropTable("bss_sim_topups").execute();
  await db.schema.dropTable("bss_sim_usage").execute();
  await db.schema.dropTable("bss_sim_packages").execute();
  await db.schema.dropTable("bss_sim_lines").execute();
}
