import { redirect } from "react-router";
import { setFlash } from "~/lib/flash.server";
import type { PaymentChoice } from "./payment-choice";
import type { Payment } from "./payments.server";
import { isPaymentProviderUnavailable } from "./provider";
import { rememberSandboxPayer } from "./sandbox/page-access.server";
import { ensurePaymentCustomer, findSavedCard } from "./saved-cards.server";
import type { RequestContext } from "~/context";

/** Something the customer pays for (an order, a top-up), as the payment service needs it. */
export interface Payable {
  /** "order", "topup": its purpose registered with the payment service. */
  purpose: string;
  /** The id of the thing being paid. */
  reference: string;
  amount: number;
  /** What the provider's page and the bank statement say. */
  description: string;
  /** Its page on this site: where the provider sends the customer back, with the voucher or the problem. */
  path: string;
  /** Where the provider may send its own receipt or voucher. */
  customerEmail: string | null;
  /**
   * Only what waits for payment is paid: a paid one is not charged again, and a cancelled one (its
   * voucher or transfer expired) gets no new voucher or card page — its form sent again only shows
   * its page.
   */
  awaitingPayment: boolean;
}

/**
 * Where the customer goes to pay as they chose, the one way the store starts paying: the
 * provider's page, or the thing's own page with the voucher or transfer details, or — a saved
 * card (decision 0119) — the thing's own page, paid at once. The payment in flight is resumed
 * rather than doubled. A provider out of reach leaves it pending, and its page says so in
 * Spanish with the way to try again. With the sandbox, this browser is the one remembered as
 * allowed on the payment's page (decision 0081).
 */
export async function payFor(
  context: RequestContext,
  payable: Payable,
  choice: PaymentChoice,
): Promise<Response> {
  if (!payable.awaitingPayment) return redirect(payable.path, { status: 303 });
  try {
    if (choice.savedCardId) return await payWithSavedCard(context, payable, choice.savedCardId);
    // Saving the card: only for an account, whose customer at the provider it is saved to.
    const account = context.session?.customer ?? null;
    const saveCardFor =
      choice.saveCard && choice.method === "card" && account
        ? await ensurePaymentCustomer(context.db, context.payments.provider, {
            sub: account.sub,
            email: account.email,
          })
        : null;
    return await toProvider(context, payable, choice.method, saveCardFor);
  } catch (error) {
    if (!isPaymentProviderUnavailable(error)) throw error;
    setFlash(context, { kind: "error", key: "commerce:payment.unavailable" });
    return redirect(payable.path, { status: 303 });
  }
}

async function toProvider(
  context: RequestContext,
  payable: Payable,
  method: PaymentChoice["method"],
  saveCardFor: string | null,
): Promise<Response> {
  // From configuration only: a Host header is the client's to write (decision 0058).
  const origin = context.config.publicOrigin;
  const result = await context.payments.begin({
    purpose: payable.purpose,
    reference: payable.reference,
    amount: payable.amount,
    method,
    description: payable.description,
    returnUrl: `${origin}${payable.path}`,
    origin,
    customerEmail: payable.customerEmail,
    saveCardFor,
  });
  rememberSandboxPayer(context, result.payment);
  return redirect(result.kind === "redirect" ? result.url : payable.path, { status: 303 });
}

/**
 * One form: the saved card is charged at once and the thing's page shows it paid (or declined,
 * with the bank's reason). A bank that asks the cardholder to authenticate (3-D Secure) gets
 * its answer on the provider's page: the customer is sent there to pay by card instead.
 */
async function payWithSavedCard(
  context: RequestContext,
  payable: Payable,
  cardId: string,
): Promise<Response> {
  const account = context.session?.customer ?? null;
  const card = account
    ? await findSavedCard(context.db, {
        accountSub: account.sub,
        id: cardId,
        provider: context.payments.provider.name,
      })
    : null;
  if (!card) {
    // Removed meanwhile (another tab), or not this account's: nothing is charged.
    setFlash(context, { kind: "error", key: "commerce:payment.savedCardGone" });
    return redirect(payable.path, { status: 303 });
  }
  const charged = await context.payments.chargeSavedCard({
    purpose: payable.purpose,
    reference: payable.reference,
    amount: payable.amount,
    description: payable.description,
    card,
    offSession: false,
  });
  if (charged.kind === "declined" && charged.reason === "authentication_required") {
    setFlash(context, { kind: "info", key: "commerce:payment.authenticationFallback" });
    return toProvider(context, payable, "card", null);
  }
  return redirect(payable.path, { status: 303 });
}

/**
 * The latest payment of a thing, as its page shows it. A customer back from the provider before
 * its notification arrived finds the thing still awaiting payment and the payment pending: the
 * provider is asked directly, and `refreshed` tells the page to read the thing again.
 */
export async function currentPayment(
  context: RequestContext,
  payable: Pick<Payable, "purpose" | "reference" | "awaitingPayment">,
): Promise<{ payment: Payment | null; refreshed: boolean }> {
  const payment = await context.payments.latest(payable.purpose, payable.reference);
  if (!payable.awaitingPayment || payment?.status !== "pending") {
    return { payment, refreshed: false };
  }
  return { payment: await context.payments.refresh(payment), refreshed: true };
}
