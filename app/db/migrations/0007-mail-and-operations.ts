import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  // E-mails to customers, written in the same transaction as what they tell (an outbox): a
  // failed send is retried from here and never loses the order (issue 15).
  await db.schema
    .createTable("mail_queue")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** One e-mail per event, e.g. "order-paid:<order id>": enqueuing twice sends once. */
    .addColumn("dedupe_key", "text", (column) => column.notNull().unique())
    .addColumn("to_address", "text", (column) => column.notNull())
    .addColumn("template", "text", (column) => column.notNull())
    .addColumn("data", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (column) => column.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema
    .createIndex("mail_queue_due")
    .on("mail_queue")
    .columns(["status", "next_attempt_at"])
    .execute();

  // Shipping a physical SIM: the operator's tracking number, and when.
  await db.schema.alterTable("orders").addColumn("shipped_at", "text").execute();
  await db.schema.alterTable("orders").addColumn("carrier", "text").execute();
  await db.schema.alterTable("orders").addColumn("tracking_number", "text").execute();
  // Lookups by folio and e-mail, and guest orders joining the account of the same address.
  await db.schema.createIndex("orders_by_email").on("orders").column("email").execute();

  // A portability request scheduled for a date, or rejected for a reason.
  await db.schema.alterTable("portability_requests").addColumn("scheduled_for", "text").execute();
  await db.schema
    .alterTable("portability_requests")
    .addColumn("rejection_reason", "text")
    .execute();

  // Every change the operator makes, with its time and reason.
  await db.schema
    .createTable("status_changes")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "order", "topup" or "portability". */
    .addColumn("subject", "text", (column) => column.notNull())
    .addColumn("subject_id", "text", (column) => column.notNull())
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (column) => column.notNull())
    /** JSON: the tracking number, the scheduled date… */
    .addColumn("detail", "text")
    .addColumn("reason", "text")
    /** Who made it: "ops:<operating-system user>". */
    .addColumn("actor", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("status_changes_by_subject")
    .on("status_changes")
    .columns(["subject", "subject_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("status_changes").execute();
  await db.schema.alterTable("portability_requests").dropColumn("rejection_reason").execute();
  await db.schema.alterTable("portability_requests").dropColumn("scheduled_for").execute();
  await db.schema.dropIndex("orders_by_email").execute();
  await db.schema.alterTable("orders").dropColumn("tracking_number").execute();
  await db.schema.alterTable("orders").dropColumn("carrier").execute();
  await db.schema.alterTable("orders").dropColumn("shipped_at").execute();
  await db.schema.dropTable("mail_queue").execute();
}
