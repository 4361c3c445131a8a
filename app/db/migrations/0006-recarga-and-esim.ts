import { sql, type Kysely } from "kysely";

// Only the schema builder and standard SQL: the same migration runs on PostgreSQL.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Top-ups without an account (decision 0066): the owner becomes optional, and a receipt can go
  // to an e-mail address. SQLite cannot relax NOT NULL in place, so the table is rebuilt.
  await db.schema
    .createTable("topups_next")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("folio", "text", (column) => column.notNull().unique())
    .addColumn("idempotency_key", "text", (column) => column.notNull().unique())
    .addColumn("customer_sub", "text")
    .addColumn("email", "text")
    .addColumn("phone_number", "text", (column) => column.notNull())
    .addColumn("amount", "integer", (column) => column.notNull())
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("paid_at", "text")
    .execute();
  await sql`insert into topups_next (id, folio, idempotency_key, customer_sub, email, phone_number, amount, status, created_at, updated_at, paid_at)
    select id, folio, idempotency_key, customer_sub, null, phone_number, amount, status, created_at, updated_at, paid_at from topups`.execute(
    db,
  );
  await db.schema.dropTable("topups").execute();
  await db.schema.alterTable("topups_next").renameTo("topups").execute();
  await db.schema
    .createIndex("topups_by_customer")
    .on("topups")
    .columns(["customer_sub", "created_at"])
    .execute();
  // The per-line limit counts recent top-ups of a number.
  await db.schema
    .createIndex("topups_by_line")
    .on("topups")
    .columns(["phone_number", "created_at"])
    .execute();

  // Physical SIM or eSIM, chosen at checkout. An eSIM order has no delivery address: its address
  // columns hold empty strings (NOT NULL cannot be relaxed in SQLite without a rebuild).
  await db.schema
    .alterTable("orders")
    .addColumn("sim_type", "text", (column) => column.notNull().defaultTo("physical"))
    .execute();

  // The activation code of each eSIM of a paid order, issued once per order and position.
  await db.schema
    .createTable("esim_activations")
    .addColumn("order_id", "text", (column) =>
      column.notNull().references("orders.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("provisioner", "text", (column) => column.notNull())
    .addColumn("activation_code", "text", (column) => column.notNull())
    .addColumn("iccid", "text", (column) => column.notNull())
    .addColumn("test_code", "integer", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("esim_activations_pk", ["order_id", "position"])
    .execute();
}

/** customer_sub stays nullable: top-ups made without an account would break the old constraint. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("esim_activations").execute();
  await db.schema.alterTable("orders").dropColumn("sim_type").execute();
  await db.schema.dropIndex("topups_by_line").execute();
  await db.schema.alterTable("topups").dropColumn("email").execute();
}
