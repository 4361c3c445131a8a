import { useFetcher, useFetchers } from "react-router";
import type { ReactNode } from "react";
import type { CartIntent } from "~/cart/cart";
import { SubmitButton, type ButtonSize, type ButtonVariant } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import { CART_ACTION } from "./use-optimistic-cart";
import type { CartActionData } from "~/cart/cart";

/**
 * One cart action as a form. Without JavaScript it posts and the server redirects back with a
 * message; with JavaScript a fetcher posts it, the page stays, and the cart updates at once.
 */
export function CartActionForm({
  intent,
  planId,
  redirectTo,
  className,
  variant = "primary",
  size,
  width = "auto",
  label,
  pendingLabel,
  children,
}: {
  intent: CartIntent;
  planId?: string;
  redirectTo?: string;
  className?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  width?: "auto" | "block" | "blockOnPhone";
  /** Accessible name, when it differs from the visible text. */
  label?: string;
  pendingLabel?: ReactNode;
  children: ReactNode;
}) {
  const fetcher = useFetcher<CartActionData>();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  // The cart lives in a cookie: two changes in flight at once would each start from the same old
  // cart and the later answer would undo the earlier one. One change at a time keeps every click.
  const otherCartChangeInFlight = useFetchers().some(
    (other) => other.state === "submitting" && other.formAction?.split("?")[0] === CART_ACTION,
  );
  return (
    <fetcher.Form method="post" action={CART_ACTION} className={className}>
      <input type="hidden" name="intent" value={intent} />
      {planId ? <input type="hidden" name="id" value={planId} /> : null}
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      {/* Tells the action that a script is waiting for an answer, not a redirect. */}
      {hydrated ? <input type="hidden" name="response" value="data" /> : null}
      {/* Never disabled: the button keeps the keyboard's focus while the cart changes. */}
      <SubmitButton
        pending={busy}
        blocked={hydrated && otherCartChangeInFlight}
        label={label}
        variant={variant}
        size={size}
        width={width}
        pendingLabel={pendingLabel}
      >
        {children}
      </SubmitButton>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm text-error">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
