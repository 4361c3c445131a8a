import type { Db } from "~/db/db.server";

/**
 * When each of an account's passkeys last signed it in (table passkey_uses, decision 0122).
 * Cognito lists a passkey's name and creation but not its use, so the store notes the sign-ins
 * it completes with one; a passkey used only elsewhere (another app on the same pool) shows none.
 */
export async function recordPasskeyUse(
  db: Db,
  use: { sub: string; credentialId: string },
  now: Date,
): Promise<void> {
  const lastUsedAt = now.toISOString();
  await db
    .insertInto("passkey_uses")
    .values({ account_sub: use.sub, credential_id: use.credentialId, last_used_at: lastUsedAt })
    .onConflict((conflict) =>
      conflict.columns(["account_sub", "credential_id"]).doUpdateSet({ last_used_at: lastUsedAt }),
    )
    .execute();
}

/** Credential id → last use (ISO), for the account's passkeys. */
export async function passkeyUses(db: Db, sub: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("passkey_uses")
    .select(["credential_id", "last_used_at"])
    .where("account_sub", "=", sub)
    .execute();
  return new Map(rows.map((row) => [row.credential_id, row.last_used_at]));
}

/** A passkey deleted from the account: its uses go with it. */
export async function forgetPasskeyUses(db: Db, sub: string, credentialId: string) {
  await db
    .deleteFrom("passkey_uses")
    .where("account_sub", "=", sub)
    .where("credential_id", "=", credentialId)
    .execute();
}
