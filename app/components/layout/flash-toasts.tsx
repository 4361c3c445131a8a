import { Link, useLocation } from "react-router";
import { useEffect, useState, type ComponentType } from "react";
import type { ShellData } from "~/lib/shell";
import { flashActionClass, flashStyles } from "./flash-styles";

type ToastStackComponent = ComponentType<{ flash: ShellData["flash"] }>;

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
  // Loaded only once a message has to be shown as a toast: most pages never pay for the library.
  // Not React.lazy: React 19 holds a Suspense boundary's content back up to 300 ms after its
  // fallback, and a toast is the answer to a tap.
  const [ToastStack, setToastStack] = useState<ToastStackComponent | null>(null);
  const toastsNeeded = later !== null || ToastStack !== null;
  useEffect(() => {
    if (!toastsNeeded || ToastStack) return;
    let current = true;
    import("./toast-stack").then(
      ({ default: loaded }) => {
        if (current) setToastStack(() => loaded);
      },
      // A chunk lost on a flaky link: the message is not shown as a toast, the page goes on.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [toastsNeeded, ToastStack]);

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
      {ToastStack ? <ToastStack flash={later} /> : null}
    </>
  );
}
