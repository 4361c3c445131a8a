import { Form, Link, NavLink, useLocation } from "react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { scrollStage, type ScrollStage } from "~/lib/scroll-stage";
import type { ShellData } from "~/lib/shell";
import { cartCount as countItems } from "~/cart/cart";
import { useOptimisticCartItems } from "~/components/commerce/use-optimistic-cart";
import { Logo } from "~/components/brand/logo";
import { Tooltip } from "~/components/ui/tooltip";
import { ExternalLink } from "./external-link";
import { CartIcon, ChatIcon, MenuIcon } from "./icons";

function useScrollStage(active: boolean): ScrollStage {
  const [stage, setStage] = useState<ScrollStage>("top");
  useEffect(() => {
    if (!active) return;
    const update = () => setStage(scrollStage(window.scrollY));
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, [active]);
  return active ? stage : "top";
}

const barStyles: Record<ScrollStage, string> = {
  top: "bg-white",
  scrolled: "bg-white/95 shadow-sm backdrop-blur",
  deep: "bg-primary-soft/95 shadow-md backdrop-blur",
};

export function Navbar({ shell }: { shell: ShellData | undefined }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const isHome = pathname === "/";
  const stage = useScrollStage(isHome);
  const menuRef = useRef<HTMLDetailsElement>(null);
  const closeMenu = () => {
    if (menuRef.current) menuRef.current.open = false;
  };
  const optimisticItems = useOptimisticCartItems(shell?.cartItems ?? []);
  const cartCount = shell ? countItems(optimisticItems) : 0;

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `block whitespace-nowrap rounded px-3 py-2.5 lg:py-2 lg:max-xl:px-2 font-medium hover:bg-primary-soft hover:text-primary-dark ${
      isActive ? "text-primary-dark underline underline-offset-4" : "text-slate-800"
    }`;

  const items = (
    <ul className="flex flex-col gap-1 lg:flex-row lg:items-center lg:gap-0 xl:gap-2">
      <li>
        <NavLink to="/plans" className={linkClass} onClick={closeMenu} prefetch="intent">
          {t("nav.plans")}
        </NavLink>
      </li>
      <li>
        <NavLink to="/recarga" className={linkClass} onClick={closeMenu} prefetch="intent">
          {t("nav.topUp")}
        </NavLink>
      </li>
      {shell ? (
        <li>
          <ExternalLink
            href={shell.links.physicalSim}
            className="block whitespace-nowrap rounded px-3 py-2.5 lg:py-2 lg:max-xl:px-2 font-medium text-slate-800 hover:bg-primary-soft"
            // It opens in a new tab: the menu left behind is closed, as after any other item.
            onClick={closeMenu}
          >
            {t("nav.physicalSim")}
          </ExternalLink>
        </li>
      ) : null}
      <li>
        <NavLink to="/my-account" className={linkClass} onClick={closeMenu} prefetch="intent">
          {t("nav.myAccount")}
        </NavLink>
      </li>
      <li>
        <NavLink to="/portabilidad" className={linkClass} onClick={closeMenu} prefetch="intent">
          {t("nav.portability")}
        </NavLink>
      </li>
      <li>
        <NavLink to="/help-center" className={linkClass} onClick={closeMenu} prefetch="intent">
          {t("nav.helpCenter")}
        </NavLink>
      </li>
      {shell?.customer ? (
        <li>
          <Form method="post" action="/auth/sign-out" onSubmit={closeMenu}>
            <button
              type="submit"
              className="block w-full whitespace-nowrap rounded px-3 py-2.5 lg:py-2 lg:max-xl:px-2 text-left font-medium text-slate-800 hover:bg-primary-soft"
            >
              {t("nav.logout")}
            </button>
          </Form>
        </li>
      ) : null}
    </ul>
  );

  const icons = (
    <div className="flex items-center gap-1">
      <Tooltip content={t("nav.cart")}>
        <Link
          to="/cart"
          prefetch="intent"
          className="relative rounded p-2 text-slate-800 hover:bg-primary-soft"
          aria-label={t("nav.cartWithCount", { count: cartCount })}
          data-testid="cart-link"
        >
          <CartIcon />
          {/* An empty cart shows no "0"; the link's name still says how many plans it holds. */}
          <span
            className="absolute -right-1 -top-1 min-w-5 rounded-full bg-primary px-1 text-center text-xs font-bold leading-5 text-white"
            data-testid="cart-count"
            aria-hidden="true"
            hidden={cartCount === 0}
          >
            {cartCount}
          </span>
        </Link>
      </Tooltip>
      {shell ? (
        <Tooltip content={t("nav.chat")}>
          <ExternalLink
            href={shell.links.chat}
            label={t("nav.chat")}
            className="rounded p-2 text-slate-800 hover:bg-primary-soft"
          >
            <ChatIcon />
          </ExternalLink>
        </Tooltip>
      ) : null}
    </div>
  );

  return (
    <header
      className={`${isHome ? "sticky" : "fixed inset-x-0"} top-0 z-40 border-b border-slate-200 transition-colors print:hidden ${barStyles[stage]}`}
      data-scroll-stage={stage}
      data-testid="navbar"
    >
      <nav
        aria-label={t("nav.label")}
        className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-2 sm:gap-4 lg:max-xl:gap-1"
      >
        <Link to="/" className="shrink-0 rounded" aria-label={t("nav.home")}>
          <Logo name={t("app.title")} compact />
        </Link>
        <div className="hidden flex-1 justify-end lg:flex">{items}</div>
        <div className="ml-auto shrink-0 lg:ml-0">{icons}</div>
        <details ref={menuRef} className="group shrink-0 lg:hidden" data-testid="mobile-menu">
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-1 rounded border border-slate-300 px-3 py-2 font-medium text-slate-800 [&::-webkit-details-marker]:hidden">
            <MenuIcon />
            <span>{t("nav.menu")}</span>
          </summary>
          <div className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 py-3 shadow-lg">
            {items}
          </div>
        </details>
      </nav>
    </header>
  );
}
