import { Link, useLocation } from "react-router";
import { Suspense, lazy, useEffect, useState } from "react";
import type { ShellData } from "~/lib/shell";
import { flashActionClass, flashStyles } from "./flash-styles";

// Loaded only once a message has to be shown as a toast: most pages never pay for the library.
const ToastStack = lazy(() => import("./toast-stack"));

/**
 * The message a page arrives with is rendered in the page by the server, so it shows without
 * JavaScript, and it stays there: turning it into a toast once the page became interactive moved
 * everything below it up while the customer was about to tap (a sign-in lost its click). Messages
 * that arrive later, without a page load (a cart change, a form sent with JavaScript), are Radix
 * toasts, which float over the page and move nothing. The page's own message goes once the
 * customer moves on to another page.
 */
export function FlashToasts({ flash }: { flash: ShellData["flash"] }) {
  const [arrivedWithPage] = useState(flash?.id ?? null);
  const { key: location } = useLocation();
  const [pageLocation] = useState(location);
  const later = flash && flash.id !== arrivedWithPage ? flash : null;
  const [toastsNeeded, setToastsNeeded] = useState(false);
  useEffect(() => {
    if (later) setToastsNeeded(true);
  }, [later]);

  return (
    <>
      {flash && flash.id === arrivedWithPage && location === pageLocation ? (
        <div
          role="status"
          className={`mx-auto mt-4 flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 rounded border-l-4 px-4 py-3 ${flashStyles[flash.kind]}`}
          data-testid="flash"
        >
          <span>{flash.message}</span>
          {flash.action ? (
            <Link to={flash.action.href} className={flashActionClass}>
              {flash.action.label}
            </Link>
          ) : null}
        </div>
      ) : null}
      {toastsNeeded ? (
        <Suspense fallback={null}>
          <ToastStack flash={later} />
        </Suspense>
      ) : null}
    </>
  );
}
