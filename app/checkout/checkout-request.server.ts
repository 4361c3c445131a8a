import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import type { Customer } from "~/auth/tokens";
import { priceCart, type PricedCart } from "~/cart/cart-lines";
import { readCart } from "~/cart/cart-session.server";
import type { SimType } from "~/catalog/terms";
import { DATABASE_BUSY_KEY, databaseBusyOrRethrow } from "~/db/database-busy.server";
import { setFlash } from "~/lib/flash.server";
import { replyWithFormKey } from "~/lib/form-key";
import { isOwnFormKey } from "~/lib/form-key.server";
import { payFor } from "~/payments/pay-for.server";
import { loadPaymentOptions } from "~/payments/payment-options.server";
import { numbersInProcess } from "~/portability/requests.server";
import {
  checkoutSchema,
  MAX_PORT_INS,
  portableSims,
  simTypesForCart,
  withDefaultHolderKind,
  withDefaultSimType,
} from "./checkout-schema";
import {
  canSeeOrder,
  checkoutKey,
  isDraftKey,
  readOrderAccess,
  rememberOrder,
  saveOrderAccess,
} from "./order-access.server";
import { orderPayment } from "./order-payments.server";
import { findOrderByIdempotencyKey, placeCheckoutOrder } from "./orders.server";
import type { RequestContext } from "~/context";

function emptyCartRedirect(context: RequestContext) {
  setFlash(context, { kind: "info", key: "commerce:checkout.flash.emptyCart" });
  return redirect("/cart", { status: 303 });
}

/** How many SIMs the cart buys: one per unit of each plan. */
function simCount(cart: PricedCart): number {
  return cart.lines.reduce((sum, line) => sum + line.quantity, 0);
}

/** The SIMs offered "Quiero conservar mi número": the first `portableSims`, each with its plan. */
function portableSimsOf(cart: PricedCart): Array<{ position: number; planName: string }> {
  return cart.lines
    .flatMap((line) =>
      Array.from({ length: Math.min(line.quantity, MAX_PORT_INS) }, () => line.plan.name),
    )
    .slice(0, portableSims(simCount(cart)))
    .map((planName, position) => ({ position, planName }));
}

/** The NIP fields the form sent ("ports[0].nip"…): never in an answer. */
function nipFields(formData: FormData): string[] {
  return [...new Set([...formData.keys()].filter((name) => /^ports\[\d+\]\.nip$/.test(name)))];
}

/** The SIM types every plan of the cart comes with; empty when the cart mixes exclusive plans. */
function simTypesFor(cart: PricedCart): SimType[] {
  return simTypesForCart(cart.lines.map((line) => line.plan.simTypes));
}

/**
 * What the checkout form needs: the priced cart, its SIM types, and this browser's key for this
 * cart. An empty cart has nothing to check out: back to the cart, saying so.
 */
export async function loadCheckoutForm(context: RequestContext) {
  const items = readCart(context);
  const cart = priceCart(items, context.catalogue.find);
  if (cart.lines.length === 0) throw emptyCartRedirect(context);
  return {
    cart,
    simTypes: simTypesFor(cart),
    /** The SIMs offered "Quiero conservar mi número", in the order of the cart's lines. */
    portableSims: portableSimsOf(cart),
    idempotencyKey: checkoutKey(context, items),
    voucherHours: context.config.PAYMENT_VOUCHER_HOURS,
    paymentOptions: await loadPaymentOptions(context),
  };
}

/**
 * The checkout form sent: checked against the cart in the cookie, its key this browser's own, the
 * order placed once per key (the signed-in customer's, if any), then on to its payment.
 */
export async function submitCheckout(
  context: RequestContext,
  request: Request,
  signedIn: Customer | null,
) {
  const formData = await request.formData();
  const items = readCart(context);
  const cart = priceCart(items, context.catalogue.find);
  const simTypes = simTypesFor(cart);
  const submission = parseWithZod(withDefaultHolderKind(withDefaultSimType(formData, simTypes)), {
    schema: checkoutSchema(simTypes, portableSims(simCount(cart))),
  });
  // A NIP is never sent back (decision 0036): the customer types it again.
  const reply = (options: Parameters<typeof submission.reply>[0] = {}) =>
    submission.reply({ ...options, hideFields: nipFields(formData) });
  if (cart.lines.length > 0 && simTypes.length === 0) {
    const result = reply({ formErrors: ["commerce:checkout.errors.simTypeMixedCart"] });
    return data(result, { status: 400 });
  }
  if (submission.status !== "success") return data(reply(), { status: 400 });
  if (cart.lines.length === 0) return emptyCartRedirect(context);

  const {
    idempotency_key: idempotencyKey,
    payment,
    holder,
    port_ins: portIns,
    ...customer
  } = submission.value;
  // A key this browser was not given (copied from another one, or signed with a secret it no
  // longer holds), or an old one of its own that placed nothing, opens nothing: the form comes
  // back, values kept, with the key of this browser's checkout of this cart.
  const stale = () =>
    data(
      replyWithFormKey(
        reply({ formErrors: ["commerce:checkout.errors.staleForm"] }),
        checkoutKey(context, items),
      ),
      { status: 409 },
    );
  if (!isOwnFormKey(context, "checkout", idempotencyKey)) return stale();
  try {
    const access = readOrderAccess(context);
    if (!isDraftKey(access, idempotencyKey)) {
      // Not the key of the checkout in progress: only an order this browser placed under it is
      // found again (the form sent a second time, after paying).
      const placed = await findOrderByIdempotencyKey(context.db, idempotencyKey);
      if (!placed || !canSeeOrder(access, placed.ref)) return stale();
    } else if (!(await findOrderByIdempotencyKey(context.db, idempotencyKey))) {
      // A number with a request in process is told now, next to it, before anything is placed
      // (the form sent again after the order was placed finds the order instead: its own
      // requests are in process by then).
      const busy = await numbersInProcess(
        context.db,
        portIns.map((portIn) => portIn.phone_number),
      );
      if (busy.size > 0) {
        const fieldErrors = Object.fromEntries(
          portIns
            .filter((portIn) => busy.has(portIn.phone_number))
            .map((portIn) => [
              `ports[${portIn.position}].phone_number`,
              ["commerce:checkout.errors.keepNumberInProcess"],
            ]),
        );
        return data(reply({ fieldErrors }), { status: 409 });
      }
    }
    // An order whose voucher expired unpaid is cancelled: the same cart bought again is a new
    // order, under a key derived from the cancelled one's, so that this form sent twice still
    // places one order (and the same key finds it).
    const { order } = await placeCheckoutOrder(context.db, {
      idempotencyKey,
      customer,
      holder: { holder, keys: context.registrationKeys },
      portIns: { choices: portIns, nipBox: context.portability.nipBox },
      lines: cart.lines,
      customerSub: signedIn?.sub ?? null,
    });
    saveOrderAccess(context, rememberOrder(readOrderAccess(context), order.ref));
    // A paid order's form sent again only shows the order.
    return await payFor(context, orderPayment(order), payment);
  } catch (error) {
    // The order is written in one transaction, and the same key finds it on the next try.
    return databaseBusyOrRethrow(
      context,
      "order",
      error,
      reply({ formErrors: [DATABASE_BUSY_KEY] }),
    );
  }
}
