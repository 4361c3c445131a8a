import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("topups")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("folio", "text", (column) => column.notNull().unique())
    .addColumn("idempotency_key", "text", (column) => column.notNull().unique())
    .addColumn("customer_sub", "text", (column) => column.notNull())
    .addColumn("phone_number", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("paid_at", "text")
    .execute();
  // Every read is "this customer's top-ups, newest first".
  await db.schema
    .createIndex("topups_by_customer")
    .on("topups")
    .columns(["customer_sub", "created_at"])
    .execute();

  // Orders placed while signed in belong to that customer too (null: a guest checkout).
  await db.schema.alterTable("orders").addColumn("customer_sub", "text").execute();
  await db.schema
    .createIndex("orders_by_customer")
    .on("orders")
    .columns(["customer_sub", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("orders_by_customer").execute();
  await db.schema.alterTable("orders").dropColumn("customer_sub").execute();
  await db.schema.dropTable("topups").execute();
}
