import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One-time links that open an order in the browser that follows them (decision 0082): sent to
  // the order's e-mail on request from /pedido, and with a paid eSIM order. Only a hash of the
  // link's secret is kept.
  await db.schema
    .createTable("order_links")
    .addColumn("token_hash", "text", (column) => column.primaryKey())
    .addColumn("order_id", "text", (column) =>
      column.notNull().references("orders.id").onDelete("cascade"),
    )
    /** "lookup" (asked for at /pedido) or "esim" (sent with a paid eSIM order). */
    .addColumn("purpose", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("expires_at", "text", (column) => column.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("order_links_by_order")
    .on("order_links")
    .column("order_id")
    .execute();

  // An eSIM's life after its code was issued: installed on a phone (its code is then never shown
  // again), or its code replaced by a new one at the customer's request (the old one cancelled).
  await db.schema.alterTable("esim_activations").addColumn("installed_at", "text").execute();
  await db.schema
    .alterTable("esim_activations")
    .addColumn("generation", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("esim_replaced_profiles")
    .addColumn("order_id", "text", (column) =>
      column.notNull().references("orders.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("generation", "integer", (column) => column.notNull())
    .addColumn("provisioner", "text", (column) => column.notNull())
    .addColumn("iccid", "text", (column) => column.notNull())
    .addColumn("replaced_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("esim_replaced_profiles_pk", ["order_id", "position", "generation"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("esim_replaced_profiles").execute();
  await db.schema.alterTable("esim_activations").dropColumn("generation").execute();
  await db.schema.alterTable("esim_activations").dropColumn("installed_at").execute();
  await db.schema.dropIndex("order_links_by_order").execute();
  await db.schema.dropTable("order_links").execute();
}
