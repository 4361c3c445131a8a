import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// Where a customer's line comes from (issue 26, decision 0092): the SIM cards shipped, each with
// the ICCID printed on it, so that the customer can activate it at /activar; and who asked for a
// portability, so that the ported number becomes a line of their account.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One physical SIM of a shipped order (`npm run ops -- enviar <folio> --iccid …`). `position`
  // counts the order's SIMs from 0 in the order of its lines, as the eSIMs do.
  await db.schema
    .createTable("shipped_sims")
    .addColumn("order_id", "text", (column) =>
      column.notNull().references("orders.id").onDelete("cascade"),
    )
    .addColumn("position", "integer", (column) => column.notNull())
    /** 19 or 20 digits, Luhn check digit last: a SIM card is shipped once. */
    .addColumn("iccid", "text", (column) => column.notNull().unique())
    .addColumn("recorded_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("shipped_sims_pk", ["order_id", "position"])
    .execute();

  // The Cognito `sub` of the customer signed in when the request was made; null for a guest.
  await db.schema.alterTable("portability_requests").addColumn("customer_sub", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("portability_requests").dropColumn("customer_sub").execute();
  await db.schema.dropTable("shipped_sims").execute();
}
