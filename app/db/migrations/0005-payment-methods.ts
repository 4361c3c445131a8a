import { sql, type Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  // How each payment is made, and what a customer who pays later needs (decision 0065).
  await db.schema
    .alterTable("payments")
    .addColumn("method", "text", (column) => column.notNull().defaultTo("card"))
    .execute();
  await db.schema.alterTable("payments").addColumn("instructions", "text").execute();
  await db.schema.alterTable("payments").addColumn("instruction_reference", "text").execute();
  await db.schema.alterTable("payments").addColumn("expires_at", "text").execute();
  // A voucher or transfer reference is never handed out twice.
  await db.schema
    .createIndex("payments_instruction_reference")
    .on("payments")
    .column("instruction_reference")
    .unique()
    .where(sql.ref("instruction_reference"), "is not", null)
    .execute();
  // The sweep of vouchers past their date reads pending payments by expiry.
  await db.schema
    .createIndex("payments_pending_by_expiry")
    .on("payments")
    .columns(["status", "expires_at"])
    .execute();

  // A provider's notification is applied once, whatever it says and however often it comes.
  await db.schema
    .createTable("payment_events")
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("event_id", "text", (column) => column.notNull())
    .addColumn("received_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("payment_events_pk", ["provider", "event_id"])
    .execute();

  // The sandbox provider issues vouchers and transfer references of its own.
  await db.schema
    .alterTable("sandbox_checkouts")
    .addColumn("method", "text", (column) => column.notNull().defaultTo("card"))
    .execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("reference", "text").execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("clabe", "text").execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("expires_at", "text").execute();
  for (const column of ["reference", "clabe"] as const) {
    await db.schema
      .createIndex(`sandbox_checkouts_${column}`)
      .on("sandbox_checkouts")
      .column(column)
      .unique()
      .where(sql.ref(column), "is not", null)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("sandbox_checkouts_clabe").execute();
  await db.schema.dropIndex("sandbox_checkouts_reference").execute();
  for (const column of ["expires_at", "clabe", "reference", "method"]) {
    await db.schema.alterTable("sandbox_checkouts").dropColumn(column).execute();
  }
  await db.schema.dropTable("payment_events").execute();
  await db.schema.dropIndex("payments_pending_by_expiry").execute();
  await db.schema.dropIndex("payments_instruction_reference").execute();
  for (const column of ["expires_at", "instruction_reference", "instructions", "method"]) {
    await db.schema.alterTable("payments").dropColumn(column).execute();
  }
}
