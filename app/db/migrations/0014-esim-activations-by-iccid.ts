import type { Kysely } from "kysely";

// Only the schema builder and standard column types: the same migration runs on PostgreSQL.
// The SM-DP+ names the profile it reports on by its ICCID alone (ES2+ HandleDownloadProgressInfo,
// decision 0093): each notification finds its eSIM by it, without reading every order's eSIMs.
// Not unique: the sandbox's test ICCIDs are not promised to be, and the store never needed it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("esim_activations_by_iccid")
    .on("esim_activations")
    .column("iccid")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("esim_activations_by_iccid").execute();
}
