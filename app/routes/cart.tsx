import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  Link,
  useActionData,
  useLoaderData,
} from "react-router";
import { cartCount, cartTotal } from "~/cart/cart";
import { priceCart } from "~/cart/cart-lines";
import { readCart } from "~/cart/cart-session.server";
import { formatPrice, formatTotal } from "~/catalog/money";
import { CartActionForm } from "~/components/commerce/cart-action-form";
import { useOptimisticCartItems } from "~/components/commerce/use-optimistic-cart";
import { Alert } from "~/components/ui/alert";
import { buttonClass } from "~/components/ui/button";
import { PageHeader } from "~/components/ui/page-header";
import { getFixedT } from "~/i18n/i18n.server";
import { useTranslation } from "~/i18n/react";
import { titleMeta } from "~/lib/meta";
import { submitCartChange } from "~/cart/cart-request.server";
import { requestContext } from "~/lib/router-context.server";

/**
 * Personal only through the cart, which keys the page cache's copy (decision 0073); a function of
 * its loaders' data alone, so the render memo may keep it too (server/html-caches.ts).
 */
export const handle = { i18n: ["commerce"], pageCache: true, renderMemo: true };

export const meta = titleMeta;

export function loader({ context: routerContext }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const cart = priceCart(readCart(context), context.catalogue.find);
  return { title: getFixedT()("pages.cart.title"), ...cart };
}

export function action({ request, context: routerContext }: ActionFunctionArgs) {
  const context = routerContext.get(requestContext);
  return submitCartChange(context, request);
}

export default function CartPage() {
  const { lines } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("commerce");
  // With JavaScript, pending cart actions show at once; the server's answer then confirms them.
  const optimistic = useOptimisticCartItems(
    lines.map((line) => ({ id: line.plan.id, quantity: line.quantity })),
  );
  const shown = optimistic.flatMap((item) => {
    const line = lines.find((candidate) => candidate.plan.id === item.id);
    return line
      ? [{ ...line, quantity: item.quantity, lineTotal: item.quantity * line.plan.price }]
      : [];
  });
  const priced = shown.map((line) => ({
    id: line.plan.id,
    price: line.plan.price,
    quantity: line.quantity,
  }));
  const count = cartCount(priced);
  const total = cartTotal(priced);

  return (
    <>
      <PageHeader title={t("common:pages.cart.heading")}>{t("cart.intro")}</PageHeader>
      {actionData?.error ? <Alert className="mb-6">{actionData.error}</Alert> : null}
      {shown.length === 0 ? (
        <section
          className="rounded-lg border border-slate-200 bg-white p-8 text-center"
          data-testid="cart-empty"
        >
          <p className="text-xl font-semibold text-slate-900">{t("cart.empty")}</p>
          <p className="mt-2 text-slate-700">{t("cart.emptyHint")}</p>
          <Link to="/plans" className={`mt-6 ${buttonClass()}`}>
            {t("cart.browsePlans")}
          </Link>
        </section>
      ) : (
        <div className="grid gap-8 lg:grid-cols-3">
          <section aria-labelledby="cart-lines" className="lg:col-span-2">
            <h2 id="cart-lines" className="sr-only">
              {t("cart.linesHeading")}
            </h2>
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {shown.map((line) => (
                <li
                  key={line.plan.id}
                  className="grid gap-3 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-center"
                  data-testid="cart-line"
                  data-plan-id={line.plan.id}
                >
                  <div className="min-w-0 wrap-anywhere">
                    <p className="text-lg font-bold text-slate-900">{line.plan.name}</p>
                    <p className="text-sm text-slate-700">
                      {t("cart.unitPrice")}: {formatPrice(line.plan.price)}
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <CartActionForm
                      intent="decrement"
                      planId={line.plan.id}
                      redirectTo="/cart"
                      variant="quiet"
                      size="icon"
                      label={t("cart.decrement", { name: line.plan.name })}
                    >
                      <span aria-hidden="true">−</span>
                    </CartActionForm>
                    <span className="min-w-8 text-center text-lg font-semibold">
                      <span className="sr-only">{t("cart.quantity")}: </span>
                      <span data-testid="line-quantity">{line.quantity}</span>
                    </span>
                    <CartActionForm
                      intent="increment"
                      planId={line.plan.id}
                      redirectTo="/cart"
                      variant="quiet"
                      size="icon"
                      label={t("cart.increment", { name: line.plan.name })}
                    >
                      <span aria-hidden="true">+</span>
                    </CartActionForm>
                  </div>
                  <div className="flex items-center gap-4 sm:flex-col sm:items-end sm:gap-1">
                    <p className="font-semibold text-slate-900">
                      <span className="sr-only">{t("cart.lineTotal")}: </span>
                      <span data-testid="line-total">{formatPrice(line.lineTotal)}</span>
                    </p>
                    <CartActionForm
                      intent="remove"
                      planId={line.plan.id}
                      redirectTo="/cart"
                      variant="dangerLink"
                      label={t("cart.removeLabel", { name: line.plan.name })}
                    >
                      {t("cart.remove")}
                    </CartActionForm>
                  </div>
                </li>
              ))}
            </ul>
            <CartActionForm intent="clear" redirectTo="/cart" className="mt-4" variant="link">
              {t("cart.clear")}
            </CartActionForm>
          </section>
          <section
            aria-labelledby="cart-summary"
            className="h-fit rounded-lg border border-slate-200 bg-slate-50 p-5"
            data-testid="cart-summary"
          >
            <h2 id="cart-summary" className="text-xl font-bold text-slate-900">
              {t("cart.summaryHeading")}
            </h2>
            <dl className="mt-4 space-y-2">
              <div className="flex justify-between">
                <dt>{t("cart.quantity")}</dt>
                <dd data-testid="cart-summary-count">{t("cart.count", { count })}</dd>
              </div>
              <div className="flex justify-between text-lg font-bold">
                <dt>{t("cart.total")}</dt>
                <dd data-testid="cart-total">{formatTotal(total)}</dd>
              </div>
            </dl>
            <Link to="/checkout" className={`mt-6 ${buttonClass({ width: "block" })}`}>
              {t("cart.checkout")}
            </Link>
            <Link
              to="/plans"
              className="mt-3 block text-center font-medium text-secondary underline underline-offset-4"
            >
              {t("cart.keepShopping")}
            </Link>
          </section>
        </div>
      )}
    </>
  );
}
