import type { Db } from "~/db/db.server";

/**
 * Sign-out that holds for copies of the cookies too. The session cookie and the guest access
 * cookies (orders, portability requests) each carry a random id; signing out records those ids
 * until every copy of the cookie has expired, and each request that brings one of them asks here
 * once (decision 0056).
 */

/** Records the ids as revoked until their dates, and sweeps the records nothing can match now. */
export async function revokeAccess(
  db: Db,
  revoked: Array<{ id: string; until: Date }>,
  now = new Date(),
) {
  if (revoked.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { id, until } of revoked) {
      await trx
        .insertInto("revoked_access")
        .values({ access_id: id, expires_at: until.toISOString() })
        .onConflict((conflict) =>
          conflict.column("access_id").doUpdateSet({ expires_at: until.toISOString() }),
        )
        .execute();
    }
    await trx.deleteFrom("revoked_access").where("expires_at", "<", now.toISOString()).execute();
  });
}

/** Which of these ids were revoked: one query whatever their number. */
export async function revokedAmong(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("revoked_access")
    .select("access_id")
    .where("access_id", "in", ids)
    .execute();
  return new Set(rows.map((row) => row.access_id));
}
