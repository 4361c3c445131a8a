import { sql, type Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The registration of each line to its holder (issue 27, decision 0097): what the rule lets the
// operator keep and nothing more, the failed validations that end the online path, and one lock
// row per bucket of holders that keeps the 10-line limit under concurrent registrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("registrations")
    .addColumn("id", "text", (column) => column.primaryKey())
    /** "VIN-2026-000123": the folio of the link, unique. */
    .addColumn("folio", "text", (column) => column.notNull().unique())
    .addColumn("number", "text", (column) => column.notNull())
    /** "fisica", "extranjera" or "moral". */
    .addColumn("holder_kind", "text", (column) => column.notNull())
    /** The full name as on the ID, or the razón social. */
    .addColumn("holder_name", "text", (column) => column.notNull())
    /** HMAC of the CURP, RFC or nationality:passport, keyed from SESSION_SECRET: counts lines. */
    .addColumn("holder_key_hash", "text", (column) => column.notNull())
    /** The CURP, RFC or nationality:passport itself, sealed (AES-256-GCM) to this row. */
    .addColumn("holder_key_sealed", "text", (column) => column.notNull())
    /** What lists show: the first 4 and last 2 characters. */
    .addColumn("holder_key_masked", "text", (column) => column.notNull())
    .addColumn("identification_type", "text", (column) => column.notNull())
    .addColumn("validation_outcome", "text", (column) => column.notNull())
    /** What the identity was checked against ("RENAPO", "SAT", "sandbox"). */
    .addColumn("validation_source", "text", (column) => column.notNull())
    .addColumn("validation_reference", "text")
    /** "online", "checkout", "portability" or "tienda". */
    .addColumn("channel", "text", (column) => column.notNull())
    /** The Cognito `sub` of the account that made it, if any. */
    .addColumn("account_sub", "text")
    .addColumn("registered_at", "text", (column) => column.notNull())
    .addColumn("replaced_at", "text")
    /** The id of the registration that replaced this one. */
    .addColumn("replaced_by", "text")
    .execute();
  // One current holder per line, whatever races.
  await db.schema
    .createIndex("registrations_current_by_number")
    .on("registrations")
    .column("number")
    .unique()
    .where(sql.ref("replaced_at"), "is", null)
    .execute();
  // A holder's current lines, counted at each registration.
  await db.schema
    .createIndex("registrations_current_by_holder")
    .on("registrations")
    .column("holder_key_hash")
    .where(sql.ref("replaced_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("registrations_by_number")
    .on("registrations")
    .columns(["number", "registered_at"])
    .execute();
  await db.schema
    .createIndex("registrations_by_date")
    .on("registrations")
    .column("registered_at")
    .execute();

  // Each identity validation of a number: three failures in 24 hours end the online path.
  await db.schema
    .createTable("registration_attempts")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("number", "text", (column) => column.notNull())
    /** "valid", "not-found", "name-mismatch" or "deceased". */
    .addColumn("outcome", "text", (column) => column.notNull())
    .addColumn("channel", "text", (column) => column.notNull())
    .addColumn("attempted_at", "text", (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex("registration_attempts_by_number")
    .on("registration_attempts")
    .columns(["number", "attempted_at"])
    .execute();

  // Taken (upserted) by every registration to a holder with a line limit, before it counts the
  // holder's lines: a holder's registrations follow one another. A bucket is a few bits of an
  // unkeyed hash of the holder's key, so that a rotation of SESSION_SECRET never splits one
  // holder across two locks; holders sharing a bucket merely wait for each other.
  await db.schema
    .createTable("registration_locks")
    .addColumn("bucket", "integer", (column) => column.primaryKey())
    .addColumn("taken_at", "text", (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("registration_locks").execute();
  await db.schema.dropTable("registration_attempts").execute();
  await db.schema.dropTable("registrations").execute();
}
