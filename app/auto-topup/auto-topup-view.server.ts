import type { Db } from "~/db/db.server";
import { getFixedT } from "~/i18n/i18n.server";
import { formatDateTime } from "~/lib/dates";
import {
  findSavedCardById,
  savedCardView,
  type SavedCardView,
} from "~/payments/saved-cards.server";
import { receiptPath } from "~/topup/paths";
import {
  chargesOfAutoTopup,
  findAutoTopup,
  paidThisMonth,
  type AutoTopup,
  type AutoTopupCharge,
} from "./auto-topups.server";
import { choiceOfRule, type TriggerChoice } from "./rules";

/**
 * What the customer's pages show of a line's automatic top-up (decision 0120). "paused": on, but
 * its card was removed (or saved with another provider): nothing is charged until another card
 * is chosen.
 */
export type AutoTopupShownState = "active" | "paused" | "stopped" | "off";

export interface AutoTopupSummary {
  state: AutoTopupShownState;
  /** Why the store stopped it: "failures" or "line_moved". */
  stopReason: string | null;
  amount: number;
  when: TriggerChoice;
  monthlyMax: number;
  card: SavedCardView | null;
  /** "Visa terminada en 4242"; null without a card. */
  cardLabel: string | null;
  chargedThisMonth: number;
}

export interface AutoTopupChargeView {
  id: string;
  date: string;
  amount: number;
  /** paid, declined (tried again), failed, awaiting_customer, skipped, scheduled. */
  state: AutoTopupCharge["state"];
  /** A decline's reason, or why it was skipped (cap, superseded). */
  result: string | null;
  /** The top-up's receipt, where an unpaid one can be paid. */
  receipt: string | null;
}

async function shownCard(db: Db, autoTopup: AutoTopup, provider: string) {
  const card = await findSavedCardById(db, autoTopup.savedCardId);
  return card && card.accountSub === autoTopup.accountSub && card.provider === provider
    ? card
    : null;
}

export async function summarise(
  db: Db,
  autoTopup: AutoTopup,
  provider: string,
  now: Date,
): Promise<AutoTopupSummary> {
  const card = await shownCard(db, autoTopup, provider);
  const state: AutoTopupShownState =
    autoTopup.state === "active" && !card ? "paused" : autoTopup.state;
  return {
    state,
    stopReason: autoTopup.state === "stopped" ? autoTopup.stopReason : null,
    amount: autoTopup.amount,
    when: choiceOfRule(autoTopup),
    monthlyMax: autoTopup.monthlyMax,
    card: card ? savedCardView(card) : null,
    cardLabel: card
      ? getFixedT("commerce")("payment.cardEndingIn", {
          brand: getFixedT("commerce")(`payment.brands.${card.brand}`),
          last4: card.last4,
        })
      : null,
    chargedThisMonth: await paidThisMonth(db, autoTopup.id, now),
  };
}

/** The line's automatic top-up as its page summarises it; null when never set. */
export async function autoTopupSummary(
  db: Db,
  input: { accountSub: string; number: string; provider: string; now: Date },
): Promise<AutoTopupSummary | null> {
  const autoTopup = await findAutoTopup(db, input.accountSub, input.number);
  return autoTopup ? summarise(db, autoTopup, input.provider, input.now) : null;
}

export function chargeView(charge: AutoTopupCharge): AutoTopupChargeView {
  return {
    id: charge.id,
    date: formatDateTime(charge.settledAt ?? charge.dueAt),
    amount: charge.amount,
    state: charge.state,
    result: charge.lastResult,
    receipt: charge.topupId ? receiptPath(charge.topupId) : null,
  };
}

export async function recentCharges(db: Db, autoTopup: AutoTopup | null) {
  return autoTopup ? (await chargesOfAutoTopup(db, autoTopup.id)).map(chargeView) : [];
}
