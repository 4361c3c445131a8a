import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The holder an order names shows, after paying, that they hold their identification (issue 47,
// decision 0139): its number, a photo and a selfie go to the identity validation, and only the
// outcome is kept here. The order's lines are registered only once it is proved.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("order_holders").addColumn("proved_at", "text").execute();
  await db.schema.alterTable("order_holders").addColumn("proof_reference", "text").execute();
  await db.schema
    .alterTable("order_holders")
    .addColumn("proof_failures", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("order_holders").addColumn("proof_failed_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ["proof_failed_at", "proof_failures", "proof_reference", "proved_at"]) {
    await db.schema.alterTable("order_holders").dropColumn(column).execute();
  }
}
