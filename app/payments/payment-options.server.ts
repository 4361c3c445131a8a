import { listSavedCards, savedCardView, type SavedCardView } from "./saved-cards.server";
import type { RequestContext } from "~/context";

/** What a payment form offers besides the methods (decision 0119). */
export interface PaymentOptions {
  /** The signed-in account's cards saved with this provider; none without an account. */
  savedCards: SavedCardView[];
  /** Whether the box that saves the card is offered: to a signed-in customer only. */
  offerToSaveCard: boolean;
}

export async function loadPaymentOptions(context: RequestContext): Promise<PaymentOptions> {
  const account = context.session?.customer ?? null;
  if (!account) return { savedCards: [], offerToSaveCard: false };
  const cards = await listSavedCards(context.db, account.sub, context.payments.provider.name);
  return { savedCards: cards.map(savedCardView), offerToSaveCard: true };
}
