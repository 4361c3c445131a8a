import type { Db } from "~/db/db.server";

/**
 * Sign-out that holds for copies of the cookie too. The session cookie carries a random session
 * id; signing out records it here until every copy of that cookie has expired, and each request
 * that brings a session asks here once (decision 0056).
 */

/** Records the session as ended until `until`, and sweeps the records nothing can match now. */
export async function revokeSession(db: Db, sessionId: string, until: Date, now = new Date()) {
  await db
    .insertInto("revoked_sessions")
    .values({ session_id: sessionId, expires_at: until.toISOString() })
    .onConflict((conflict) =>
      conflict.column("session_id").doUpdateSet({ expires_at: until.toISOString() }),
    )
    .execute();
  await db.deleteFrom("revoked_sessions").where("expires_at", "<", now.toISOString()).execute();
}

export async function isSessionRevoked(db: Db, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom("revoked_sessions")
    .select("session_id")
    .where("session_id", "=", sessionId)
    .executeTakeFirst();
  return row !== undefined;
}
