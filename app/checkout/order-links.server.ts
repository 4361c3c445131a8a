import { createHash, randomBytes } from "node:crypto";
import type { Db } from "~/db/db.server";
import type { OrderLinkPurpose } from "~/db/schema";

/**
 * One-time links that open an order in the browser that follows them (decision 0082). The order's
 * folio is printed for people and never a secret, and its e-mail is known to many: together they
 * prove nothing. What proves that someone may see an order now — its eSIM codes above all — is
 * the mailbox of the order's address: a link sent there, used once, soon.
 *
 * Only a hash of the link's secret is stored: a copy of the database opens no order.
 */

/** How long each kind of link opens its order. */
export const ORDER_LINK_LIFETIME_MS: Record<OrderLinkPurpose, number> = {
  /** Asked for at /pedido, by someone waiting for it. */
  lookup: 30 * 60 * 1000,
  /** Sent with a paid eSIM order, read whenever the customer gets to the phone. */
  esim: 24 * 60 * 60 * 1000,
};

/** 32 random bytes, base64url: what the link carries. */
export const ORDER_LINK_TOKEN = /^[\w-]{43}$/;

function hashOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new link to the order; answers its secret (for the e-mail only) and when it stops working. */
export async function issueOrderLink(
  db: Db,
  orderRef: string,
  purpose: OrderLinkPurpose,
  now = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ORDER_LINK_LIFETIME_MS[purpose]).toISOString();
  await db
    .insertInto("order_links")
    .values({
      token_hash: hashOf(token),
      order_id: orderRef,
      purpose,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** What a link is, before anyone uses it: the page shows its folio and a button. */
export async function peekOrderLink(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ folio: string } | null> {
  if (!ORDER_LINK_TOKEN.test(token)) return null;
  const row = await db
    .selectFrom("order_links")
    .innerJoin("orders", "orders.id", "order_links.order_id")
    .select(["orders.folio", "order_links.expires_at", "order_links.used_at"])
    .where("order_links.token_hash", "=", hashOf(token))
    .executeTakeFirst();
  if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) return null;
  return { folio: row.folio };
}

/**
 * Uses the link: answers the order it opens, once. A second use, an expired link or an unknown
 * one answer null, all alike. The use is one conditional update, so two clicks at once open it
 * once.
 */
export async function redeemOrderLink(
  db: Db,
  token: string,
  now = new Date(),
): Promise<string | null> {
  if (!ORDER_LINK_TOKEN.test(token)) return null;
  const at = now.toISOString();
  const used = await db
    .updateTable("order_links")
    .set({ used_at: at })
    .where("token_hash", "=", hashOf(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning("order_id")
    .executeTakeFirst();
  return used?.order_id ?? null;
}
