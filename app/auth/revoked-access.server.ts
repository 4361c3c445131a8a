import { sql } from "kysely";
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

/**
 * Every session of the account authenticated before `at` is over (a password reset, "Cerrar
 * sesión en todos los dispositivos"), copies of its cookie included (decision 0134). The record
 * is kept as long as a session could outlive it (`keepForMs`: the session cookie's life).
 */
export async function signOutAccountEverywhere(
  db: Db,
  { email, at, keepForMs }: { email: string; at: Date; keepForMs: number },
) {
  const signedOutAt = at.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("account_sign_outs")
      .values({ account_email: email.toLowerCase(), signed_out_at: signedOutAt })
      .onConflict((conflict) =>
        conflict.column("account_email").doUpdateSet({ signed_out_at: signedOutAt }),
      )
      .execute();
    await trx
      .deleteFrom("account_sign_outs")
      .where("signed_out_at", "<", new Date(at.getTime() - keepForMs).toISOString())
      .execute();
  });
}

/** The session a request brings: whose it is, and when its customer last authenticated. */
export interface SessionAuthentication {
  email: string;
  authenticatedAt: Date;
}

/**
 * Which of these ids were revoked, and whether the session's account signed out everywhere
 * after the session was authenticated: one query whatever their number (every signed-in request
 * asks, so the two questions share one round trip).
 */
export async function revokedAmong(
  db: Db,
  ids: string[],
  session: SessionAuthentication | null = null,
): Promise<{ ids: Set<string>; sessionSignedOut: boolean }> {
  if (ids.length === 0 && !session) return { ids: new Set(), sessionSignedOut: false };
  const revokedIds = db
    .selectFrom("revoked_access")
    .select(["access_id as id", sql<number>`0`.as("account")])
    .where("access_id", "in", ids.length > 0 ? ids : [""]);
  const rows = session
    ? await revokedIds
        .unionAll(
          db
            .selectFrom("account_sign_outs")
            .select(["account_email as id", sql<number>`1`.as("account")])
            .where("account_email", "=", session.email.toLowerCase())
            .where("signed_out_at", ">", session.authenticatedAt.toISOString()),
        )
        .execute()
    : await revokedIds.execute();
  return {
    ids: new Set(rows.filter((row) => Number(row.account) === 0).map((row) => row.id)),
    sessionSignedOut: rows.some((row) => Number(row.account) === 1),
  };
}
