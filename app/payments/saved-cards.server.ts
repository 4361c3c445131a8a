import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import { isUniqueViolation, nowIso, type Db } from "~/db/db.server";
import type { Database, SavedCardsTable } from "~/db/schema";
import { toCardBrand, type CardBrand, type PaymentProvider, type ProviderCard } from "./provider";

/**
 * Cards an account saved at the payment provider (decision 0119). The store keeps only what the
 * customer needs to recognise a card (brand, last four digits, expiry) and the provider's ids to
 * charge it; the number stays at the provider. Each account has one customer at the provider
 * (a Stripe Customer), made the first time it saves a card.
 */

type Executor = Db | Transaction<Database>;

export interface SavedCard {
  /** Ours ("tj_…"): what a form or an automatic top-up names. */
  id: string;
  accountSub: string;
  provider: string;
  customerRef: string;
  methodRef: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: string;
}

/** What a page shows of a card: never the ids. */
export interface SavedCardView {
  id: string;
  brand: CardBrand;
  last4: string;
  /** "12/30". */
  expiry: string;
}

function toSavedCard(row: SavedCardsTable): SavedCard {
  return {
    id: row.id,
    accountSub: row.account_sub,
    provider: row.provider,
    customerRef: row.customer_ref,
    methodRef: row.method_ref,
    brand: toCardBrand(row.brand),
    last4: row.last4,
    expMonth: Number(row.exp_month),
    expYear: Number(row.exp_year),
    createdAt: row.created_at,
  };
}

/** "MM/AA", as the card prints it. */
export function cardExpiry(card: Pick<SavedCard, "expMonth" | "expYear">): string {
  return `${String(card.expMonth).padStart(2, "0")}/${String(card.expYear % 100).padStart(2, "0")}`;
}

export function savedCardView(card: SavedCard): SavedCardView {
  return { id: card.id, brand: card.brand, last4: card.last4, expiry: cardExpiry(card) };
}

/** The account's cards saved with this provider, the newest first. */
export async function listSavedCards(
  db: Executor,
  accountSub: string,
  provider: string,
): Promise<SavedCard[]> {
  const rows = await db
    .selectFrom("saved_cards")
    .selectAll()
    .where("account_sub", "=", accountSub)
    .where("provider", "=", provider)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toSavedCard);
}

/** A saved card by its id, whoever's it is; null when removed (or never saved). */
export async function findSavedCardById(db: Executor, id: string): Promise<SavedCard | null> {
  const row = await db
    .selectFrom("saved_cards")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? toSavedCard(row) : null;
}

/** The account's card with this id at this provider; null for anyone else's, or one removed. */
export async function findSavedCard(
  db: Executor,
  input: { accountSub: string; id: string; provider: string },
): Promise<SavedCard | null> {
  const card = await findSavedCardById(db, input.id);
  return card && card.accountSub === input.accountSub && card.provider === input.provider
    ? card
    : null;
}

/**
 * The account's customer at the provider, made there the first time (the provider dedupes by the
 * account, so two first saves at once make one). A provider out of reach throws its
 * PaymentProviderUnavailable: nothing is kept, and the payment is not begun.
 */
export async function ensurePaymentCustomer(
  db: Db,
  provider: PaymentProvider,
  account: { sub: string; email: string | null },
): Promise<string> {
  const known = await db
    .selectFrom("payment_customers")
    .select("customer_ref")
    .where("account_sub", "=", account.sub)
    .where("provider", "=", provider.name)
    .executeTakeFirst();
  if (known) return known.customer_ref;
  const customerRef = await provider.createCustomer({
    accountKey: account.sub,
    email: account.email,
  });
  try {
    await db
      .insertInto("payment_customers")
      .values({
        account_sub: account.sub,
        provider: provider.name,
        customer_ref: customerRef,
        created_at: nowIso(),
      })
      .execute();
    return customerRef;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another request recorded the account's customer first: that one is the account's.
    const winner = await db
      .selectFrom("payment_customers")
      .select("customer_ref")
      .where("account_sub", "=", account.sub)
      .where("provider", "=", provider.name)
      .executeTakeFirstOrThrow();
    return winner.customer_ref;
  }
}

/**
 * Keeps a card the provider saved with an approved payment, in the transaction that records the
 * payment. The same card saved again (same brand, last four and expiry) replaces the older entry's
 * provider ids rather than listing it twice. Answers the saved card; null when the provider's
 * customer is not one of the store's accounts (another site on the same provider account).
 */
export async function recordSavedCard(
  trx: Executor,
  provider: string,
  card: ProviderCard,
): Promise<SavedCard | null> {
  const owner = await trx
    .selectFrom("payment_customers")
    .select("account_sub")
    .where("provider", "=", provider)
    .where("customer_ref", "=", card.customerRef)
    .executeTakeFirst();
  if (!owner) return null;
  const already = await trx
    .selectFrom("saved_cards")
    .selectAll()
    .where("provider", "=", provider)
    .where("method_ref", "=", card.methodRef)
    .executeTakeFirst();
  if (already) return toSavedCard(already);
  const same = await trx
    .selectFrom("saved_cards")
    .selectAll()
    .where("account_sub", "=", owner.account_sub)
    .where("provider", "=", provider)
    .where("brand", "=", card.brand)
    .where("last4", "=", card.last4)
    .where("exp_month", "=", card.expMonth)
    .where("exp_year", "=", card.expYear)
    .executeTakeFirst();
  if (same) {
    await trx
      .updateTable("saved_cards")
      .set({ method_ref: card.methodRef, customer_ref: card.customerRef })
      .where("id", "=", same.id)
      .execute();
    return toSavedCard({ ...same, method_ref: card.methodRef, customer_ref: card.customerRef });
  }
  const row: SavedCardsTable = {
    id: `tj_${randomBytes(12).toString("base64url")}`,
    account_sub: owner.account_sub,
    provider,
    customer_ref: card.customerRef,
    method_ref: card.methodRef,
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    created_at: nowIso(),
  };
  await trx.insertInto("saved_cards").values(row).execute();
  return toSavedCard(row);
}

/**
 * Removes the account's card: forgotten at the provider first (Stripe detaches it), then here.
 * Answers the card removed, or null when it was not the account's (or already gone). A provider
 * out of reach throws its PaymentProviderUnavailable and the card stays listed.
 */
export async function removeSavedCard(
  db: Db,
  provider: PaymentProvider,
  input: { accountSub: string; id: string },
): Promise<SavedCard | null> {
  const card = await findSavedCard(db, { ...input, provider: provider.name });
  if (!card) return null;
  await provider.detachCard(card.methodRef);
  await db.deleteFrom("saved_cards").where("id", "=", card.id).execute();
  return card;
}
