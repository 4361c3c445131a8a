import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// Saved cards (decision 0119) and automatic top-ups (decisions 0120, 0121). No card number is
// kept anywhere: the provider's ids, the brand, the last four digits and the expiry only.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The payment provider's customer of each account (a Stripe Customer), made the first time the
  // account saves a card, so that every card it saves hangs from the same one.
  await db.schema
    .createTable("payment_customers")
    .addColumn("account_sub", "text", (column) => column.notNull())
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("customer_ref", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("payment_customers_pk", ["account_sub", "provider"])
    .addUniqueConstraint("payment_customers_by_ref", ["provider", "customer_ref"])
    .execute();

  await db.schema
    .createTable("saved_cards")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("account_sub", "text", (column) => column.notNull())
    .addColumn("provider", "text", (column) => column.notNull())
    .addColumn("customer_ref", "text", (column) => column.notNull())
    /** The provider's saved payment method (Stripe `pm_…`, the sandbox's `spm_…`). */
    .addColumn("method_ref", "text", (column) => column.notNull())
    .addColumn("brand", "text", (column) => column.notNull())
    .addColumn("last4", "text", (column) => column.notNull())
    .addColumn("exp_month", "integer", (column) => column.notNull())
    .addColumn("exp_year", "integer", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addUniqueConstraint("saved_cards_by_method", ["provider", "method_ref"])
    .execute();
  // A payment made with a saved card names it: a charge interrupted before its answer is resumed
  // (the same payment, the same idempotency key) rather than made twice.
  await db.schema.alterTable("payments").addColumn("saved_card_id", "text").execute();
  await db.schema
    .createIndex("saved_cards_by_account")
    .on("saved_cards")
    .column("account_sub")
    .execute();

  // The sandbox provider's own side of saved cards: what a real provider keeps in its vault. The
  // card number is not kept even here: what the test card decides (approve, decline later, ask
  // for 3-D Secure) is.
  await db.schema
    .createTable("sandbox_payment_methods")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("customer_ref", "text", (column) => column.notNull())
    .addColumn("brand", "text", (column) => column.notNull())
    .addColumn("last4", "text", (column) => column.notNull())
    .addColumn("exp_month", "integer", (column) => column.notNull())
    .addColumn("exp_year", "integer", (column) => column.notNull())
    .addColumn("behaviour", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("detached_at", "text")
    .execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("save_for_customer", "text").execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("payment_method_id", "text").execute();
  await db.schema.alterTable("sandbox_checkouts").addColumn("idempotency_key", "text").execute();
  await db.schema
    .alterTable("sandbox_checkouts")
    .addColumn("off_session", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("sandbox_checkouts_by_idempotency_key")
    .unique()
    .on("sandbox_checkouts")
    .column("idempotency_key")
    .execute();

  // One automatic top-up per line of an account, switched off rather than deleted.
  await db.schema
    .createTable("auto_topups")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("account_sub", "text", (column) => column.notNull())
    .addColumn("number", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("trigger", "text", (column) => column.notNull())
    .addColumn("threshold_mb", "integer")
    .addColumn("monthly_max", "integer", (column) => column.notNull())
    .addColumn("saved_card_id", "text", (column) => column.notNull())
    .addColumn("email", "text", (column) => column.notNull())
    .addColumn("state", "text", (column) => column.notNull())
    .addColumn("stop_reason", "text")
    .addColumn("failures", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", "text")
    .addColumn("checked_at", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addUniqueConstraint("auto_topups_by_line", ["account_sub", "number"])
    .execute();
  await db.schema
    .createIndex("auto_topups_by_state")
    .on("auto_topups")
    .columns(["state", "id"])
    .execute();

  // One row per line and period (a package's end, or a day without a package): the database
  // itself refuses a second charge of one period, whichever process or machine tries it.
  await db.schema
    .createTable("auto_topup_charges")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("auto_topup_id", "text", (column) => column.notNull())
    .addColumn("number", "text", (column) => column.notNull())
    .addColumn("period", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("state", "text", (column) => column.notNull())
    .addColumn("topup_id", "text")
    .addColumn("attempts", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("due_at", "text", (column) => column.notNull())
    .addColumn("last_result", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("settled_at", "text")
    .addUniqueConstraint("auto_topup_charges_by_period", ["number", "period"])
    .execute();
  await db.schema
    .createIndex("auto_topup_charges_by_auto_topup")
    .on("auto_topup_charges")
    .columns(["auto_topup_id", "state"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("auto_topup_charges").execute();
  await db.schema.dropTable("auto_topups").execute();
  await db.schema.dropIndex("sandbox_checkouts_by_idempotency_key").execute();
  for (const column of [
    "off_session",
    "idempotency_key",
    "payment_method_id",
    "save_for_customer",
  ]) {
    await db.schema.alterTable("sandbox_checkouts").dropColumn(column).execute();
  }
  await db.schema.dropTable("sandbox_payment_methods").execute();
  await db.schema.alterTable("payments").dropColumn("saved_card_id").execute();
  await db.schema.dropTable("saved_cards").execute();
  await db.schema.dropTable("payment_customers").execute();
}
