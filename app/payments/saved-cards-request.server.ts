import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Customer } from "~/auth/tokens";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import { SAVED_CARDS_PATH } from "./paths";
import { isPaymentProviderUnavailable } from "./provider";
import { removeCardSchema } from "./saved-card-schema";
import { listSavedCards, removeSavedCard, savedCardView } from "./saved-cards.server";
import type { RequestContext } from "~/context";

/** How long the customer is asked to wait when the provider could not forget the card. */
const PROVIDER_RETRY_AFTER_SECONDS = 30;

/** The account's saved cards, as `/my-account/tarjetas` lists them (decision 0119). */
export async function loadSavedCards(context: RequestContext, customer: Customer) {
  const cards = await listSavedCards(context.db, customer.sub, context.payments.provider.name);
  return cards.map(savedCardView);
}

/**
 * "Quitar" on a card: forgotten at the provider (Stripe detaches the PaymentMethod), then here.
 * The provider out of reach keeps the card listed, with a Spanish 503 and a retry; a card that
 * is not (or no longer) the account's changes nothing and says so.
 */
export async function submitSavedCards(
  context: RequestContext,
  request: Request,
  customer: Customer,
) {
  const submission = parseWithZod(await request.formData(), { schema: removeCardSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const removed = await removeSavedCard(context.db, context.payments.provider, {
      accountSub: customer.sub,
      id: submission.value.card_id,
    });
    if (!removed) {
      setFlash(context, { kind: "info", key: "commerce:savedCards.flash.alreadyGone" });
    } else {
      context.logger.info({ msg: "saved card removed", requestId: context.requestId });
      setFlash(context, {
        kind: "success",
        key: "commerce:savedCards.flash.removed",
        values: {
          brand: getFixedT("commerce")(`payment.brands.${removed.brand}`),
          last4: removed.last4,
        },
      });
    }
    return redirect(SAVED_CARDS_PATH, { status: 303 });
  } catch (error) {
    if (isPaymentProviderUnavailable(error)) {
      return data(submission.reply({ formErrors: ["commerce:savedCards.errors.unavailable"] }), {
        status: 503,
        headers: { "Retry-After": String(PROVIDER_RETRY_AFTER_SECONDS) },
      });
    }
    return databaseBusyOrRethrow(
      context,
      "saved card removal",
      error,
      submission.reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}
