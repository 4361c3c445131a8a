import { data, redirect } from "react-router";
import { applyCartIntent, isCartIntent, type CartActionData, type CartIntent } from "./cart";
import { readCart, saveCart } from "./cart-session.server";
import { getFixedT } from "~/i18n/i18n.server";
import { setFlash } from "~/lib/flash.server";
import { sameSitePath } from "~/lib/same-site-path";
import type { RequestContext } from "~/context";

const flashKeys: Record<CartIntent, string> = {
  add: "commerce:cart.flash.added",
  increment: "commerce:cart.flash.incremented",
  decrement: "commerce:cart.flash.decremented",
  remove: "commerce:cart.flash.removed",
  clear: "commerce:cart.flash.cleared",
};

/**
 * POST /cart — the cart contract: `intent` (add | increment | decrement | remove | clear), `id`
 * (a plan id; not for clear), optional same-site `redirectTo`. Without JavaScript: 303 back with
 * a message. A fetcher sends `response=data` and gets the answer as data instead.
 */
export async function submitCartChange(context: RequestContext, request: Request) {
  const t = getFixedT("commerce");
  const form = await request.formData();
  const intent = form.get("intent");
  const id = form.get("id");
  if (!isCartIntent(intent)) {
    return data<CartActionData>(
      { ok: false, error: t("cart.errors.unknownIntent") },
      { status: 400 },
    );
  }
  const plan = typeof id === "string" ? context.catalogue.find(id) : undefined;
  if (intent !== "clear" && !plan) {
    return data<CartActionData>(
      { ok: false, error: t("cart.errors.unknownPlan") },
      { status: 400 },
    );
  }
  saveCart(context, applyCartIntent(readCart(context), intent, plan?.id ?? ""));
  setFlash(context, {
    kind: "success",
    key: flashKeys[intent],
    values: plan ? { name: plan.name } : undefined,
    // Added from a plan's card, away from the cart: the message leads there.
    action:
      intent === "add" ? { href: "/cart", labelKey: "commerce:cart.flash.viewCart" } : undefined,
  });
  if (form.get("response") === "data") return data<CartActionData>({ ok: true, error: null });
  return redirect(sameSitePath(form.get("redirectTo"), "/cart"), { status: 303 });
}
