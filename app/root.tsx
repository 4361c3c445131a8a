import {
  type LinksFunction,
  type LoaderFunctionArgs,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { getCustomer } from "./auth/session.server";
import { FlashToasts } from "./components/layout/flash-toasts";
import { Footer } from "./components/layout/footer";
import { Navbar } from "./components/layout/navbar";
import { buttonClass } from "./components/ui/button";
import { priceCart } from "./cart/cart-lines";
import { readCart } from "./cart/cart-session.server";
import { getFixedT } from "./i18n/i18n.server";
import { reloadAfterChunkError } from "./lib/chunk-reload";
import { whatsAppLink } from "./lib/external-links";
import { actionLabelKey } from "./lib/flash";
import { takeFlash } from "./lib/flash.server";
import { emptiesCartFirst } from "./checkout/order-access.server";
import { pageTitle } from "./lib/meta";
import { useNonce } from "./lib/nonce";
import type { ShellData } from "./lib/shell";
import stylesheet from "./tailwind.css?url";
import { requestContext } from "~/lib/router-context.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const handle = { i18n: ["common"] };

export function loader({ context: routerContext, url }: LoaderFunctionArgs) {
  const context = routerContext.get(requestContext);
  const t = getFixedT();
  const { config } = context;
  const flash = emptiesCartFirst(context, url) ? null : takeFlash(context);
  const cart = priceCart(readCart(context), context.catalogue.find);
  const customer = getCustomer(context);
  const shell: ShellData = {
    locale: "es",
    appTitle: t("app.title"),
    description: t("app.tagline"),
    origin: config.publicOrigin,
    shareImageAlt: t("app.shareImageAlt"),
    customer: customer ? { email: customer.email } : null,
    cartCount: cart.count,
    cartItems: cart.lines.map((line) => ({ id: line.plan.id, quantity: line.quantity })),
    // The id tells this message's toast from the next one's: a value of this page view alone.
    flash: flash
      ? {
          ...flash,
          id: context.newViewToken(),
          message: t(flash.key, flash.values ?? {}),
          action: flash.action
            ? { href: flash.action.href, label: t(actionLabelKey(flash.action)) }
            : null,
        }
      : null,
    links: {
      physicalSim: whatsAppLink(config.WHATSAPP_NUMBER, t("nav.physicalSimMessage")),
      chat: whatsAppLink(config.WHATSAPP_NUMBER, t("nav.chatMessage")),
      whatsapp: whatsAppLink(config.WHATSAPP_NUMBER),
      tiktok: config.SOCIAL_TIKTOK_URL,
      instagram: config.SOCIAL_INSTAGRAM_URL,
      facebook: config.SOCIAL_FACEBOOK_URL,
    },
    contactEmail: config.CONTACT_EMAIL,
    testEnvironment: config.isTestEnvironment,
  };
  return shell;
}

export function Layout({ children }: { children: ReactNode }) {
  const shell = useRouteLoaderData<typeof loader>("root") as ShellData | undefined;
  const nonce = useNonce();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <html lang="es">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#15803d" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#contenido"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          {t("app.skipToContent")}
        </a>
        {shell?.testEnvironment ? (
          <p
            role="note"
            className="relative z-50 border-b-2 border-dashed border-amber-700 bg-amber-50 px-4 py-2 text-center font-semibold text-amber-900"
            data-testid="test-environment-banner"
          >
            {t("app.testEnvironment")}
          </p>
        ) : null}
        <Navbar shell={shell} />
        {/* The bar is fixed outside the home page: keep content clear of it. */}
        <div className={pathname === "/" ? "" : "pt-16"} />
        <FlashToasts flash={shell?.flash ?? null} />
        <main id="contenido" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          {children}
        </main>
        <Footer shell={shell} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** What the one error boundary tells the customer; the status decides it. */
function errorPage(status: number) {
  if (status === 404) return { kind: "not-found", title: "errors.notFoundTitle" } as const;
  // A page the database could not serve for a moment (decision 0076): not a bug, try again.
  if (status === 503) {
    return { kind: "unavailable", title: "errors.unavailableTitle" } as const;
  }
  // The client's mistake (a form sent to a page that takes none, a method it does not answer):
  // never "something went wrong on our side".
  if (status >= 400 && status < 500) {
    return { kind: "refused", title: "errors.refusedTitle" } as const;
  }
  return { kind: "server-error", title: "errors.serverErrorTitle" } as const;
}

/**
 * The one error boundary: a 404 thrown anywhere (an unknown path, a closed page), a 403, a page the
 * database could not serve for a moment (503), or a bug (500, logged by the server). Routes throw;
 * only this draws the page.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const shell = useRouteLoaderData<typeof loader>("root") as ShellData | undefined;

  useEffect(() => reloadAfterChunkError(error, pathname), [error, pathname]);

  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page = errorPage(status);
  const title = t(page.title);
  return (
    <section className="py-12 text-center" data-testid={page.kind}>
      <title>{pageTitle(shell?.appTitle ?? t("app.title"), title)}</title>
      <p className="text-sm font-semibold text-error">{t("errors.status", { status })}</p>
      <h1 className="mt-2 text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-lg">
        {page.kind === "not-found"
          ? t("errors.notFoundMessage", { path: pathname })
          : page.kind === "unavailable"
            ? t("errors.unavailableMessage")
            : page.kind === "refused"
              ? t("errors.refusedMessage")
              : t("errors.serverErrorMessage")}
      </p>
      {page.kind === "not-found" ? (
        <p className="mt-2 text-slate-700">{t("errors.notFoundHint")}</p>
      ) : null}
      {page.kind === "unavailable" ? (
        <a href={`${pathname}${search}`} className={`mt-8 ${buttonClass()}`}>
          {t("errors.tryAgain")}
        </a>
      ) : (
        <a href="/" className={`mt-8 ${buttonClass()}`}>
          {t("errors.backHome")}
        </a>
      )}
    </section>
  );
}
