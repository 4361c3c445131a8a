import { sql, type Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// One person, one count, and the notices of a new registration (issue 47, decision 0136).
export async function up(db: Kysely<unknown>): Promise<void> {
  // HMAC of a foreigner's passport number alone ("passport:<number>"), whatever nationality was
  // typed with it and whether a CURP temporal was given too: a passport and the CURP temporal
  // given with it, and every nationality typed with it, count as one person's lines. Rows
  // registered before have none until `npm run ops -- recifrar-registros` fills it.
  await db.schema.alterTable("registrations").addColumn("passport_hash", "text").execute();
  await db.schema
    .createIndex("registrations_current_by_passport")
    .on("registrations")
    .column("passport_hash")
    .where(sql.ref("replaced_at"), "is", null)
    .execute();

  // A notice sent to the contact of a person's earlier registration when a line is registered
  // to that person: its link's token (only its SHA-256 kept) lets whoever got it say "no fui yo".
  await db.schema
    .createTable("registration_notices")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("token_hash", "text", (column) => column.notNull().unique())
    /** The registration the notice tells of. */
    .addColumn("registration_id", "text", (column) => column.notNull())
    /** "email" (the account of an earlier registration) or "sms" (an earlier line). */
    .addColumn("channel", "text", (column) => column.notNull())
    .addColumn("created_at", "text", (column) => column.notNull())
    /** When its recipient said "no fui yo"; the operator lists these. */
    .addColumn("disputed_at", "text")
    .execute();
  await db.schema
    .createIndex("registration_notices_by_registration")
    .on("registration_notices")
    .column("registration_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("registration_notices").execute();
  await db.schema.dropIndex("registrations_current_by_passport").execute();
  await db.schema.alterTable("registrations").dropColumn("passport_hash").execute();
}
