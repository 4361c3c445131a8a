import { sql, type Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("plans")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("price", "integer", (column) => column.notNull())
    .addColumn("validity_days", "integer", (column) => column.notNull())
    .addColumn("data_gb", "integer", (column) => column.notNull())
    .addColumn("minutes", "integer")
    .addColumn("sms", "integer")
    .addColumn("covers_mexico", "integer", (column) => column.notNull())
    .addColumn("covers_usa", "integer", (column) => column.notNull())
    .addColumn("covers_canada", "integer", (column) => column.notNull())
    .addColumn("unlimited_social", "integer", (column) => column.notNull())
    .addColumn("social_networks", "text", (column) => column.notNull())
    .addColumn("hotspot", "integer", (column) => column.notNull())
    .addColumn("sim_physical", "integer", (column) => column.notNull())
    .addColumn("sim_esim", "integer", (column) => column.notNull())
    .addColumn("fair_use_note", "text", (column) => column.notNull())
    .addColumn("tariff_registration", "text", (column) => column.notNull())
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("active", "integer", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("folio", "text", (column) => column.notNull().unique())
    .addColumn("idempotency_key", "text", (column) => column.notNull().unique())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("total", "integer", (column) => column.notNull())
    .addColumn("full_name", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("phone_number", "text", (column) => column.notNull())
    .addColumn("street", "text", (column) => column.notNull())
    .addColumn("exterior_number", "text", (column) => column.notNull())
    .addColumn("interior_number", "text")
    .addColumn("neighborhood", "text", (column) => column.notNull())
    .addColumn("postal_code", "text", (column) => column.notNull())
    .addColumn("municipality", "text", (column) => column.notNull())
    .addColumn("state", "text", (column) => column.notNull())
    .addColumn("terms_accepted_at", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("paid_at", "text")
    .execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("order_id", "text", (column) =>
      column.notNull().references("orders.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("plan_id", "text", (column) => column.notNull().references("plans.id"))
    .addColumn("plan_name", "text", (column) => column.notNull())
    .addColumn("unit_price", "integer", (column) => column.notNull())
    .addColumn("quantity", "integer", (column) => column.notNull())
    .addColumn("line_total", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("order_lines_pk", ["order_id", "position"])
    .execute();

  await db.schema
    .createTable("folio_counters")
    .addColumn("series", "text", (column) => column.notNull())
    .addColumn("year", "integer", (column) => column.notNull())
    .addColumn("last_number", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("folio_counters_pk", ["series", "year"])
    .execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("purpose", "text", (column) => column.notNull())
    .addColumn("reference", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("currency", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("provider_reference", "text")
    .addColumn("checkout_url", "text")
    .addColumn("decline_reason", "text")
    .addColumn("card_brand", "text")
    .addColumn("card_last4", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("settled_at", "text")
    .execute();
  await db.schema
    .createIndex("payments_by_purpose")
    .on("payments")
    .columns(["purpose", "reference", "created_at"])
    .execute();
  // At most one payment in flight per thing being paid: a double submission cannot open two.
  await db.schema
    .createIndex("payments_one_pending")
    .on("payments")
    .columns(["purpose", "reference"])
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();

  await db.schema
    .createTable("sandbox_checkouts")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("merchant_reference", "text", (column) => column.notNull().unique())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("currency", "text", (column) => column.notNull())
    .addColumn("description", "text", (column) => column.notNull())
    .addColumn("return_url", "text", (column) => column.notNull())
    .addColumn("notify_url", "text", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("decline_reason", "text")
    .addColumn("card_brand", "text")
    .addColumn("card_last4", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("completed_at", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "sandbox_checkouts",
    "payments",
    "folio_counters",
    "order_lines",
    "orders",
    "plans",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
