import { Suspense, lazy, useEffect, useState } from "react";
import type { ShellData } from "~/lib/shell";
import { flashStyles } from "./flash-styles";

// Loaded only once a message has to be shown: most pages never pay for the toast library.
const ToastStack = lazy(() => import("./toast-stack"));

/**
 * The server renders the message in the page, so it shows without JavaScript; once the page is
 * interactive, messages become Radix toasts.
 */
export function FlashToasts({ flash }: { flash: ShellData["flash"] }) {
  const [interactive, setInteractive] = useState(false);
  const [everFlashed, setEverFlashed] = useState(Boolean(flash));
  useEffect(() => setInteractive(true), []);
  useEffect(() => {
    if (flash) setEverFlashed(true);
  }, [flash]);

  const banner = flash ? (
    <div
      role="status"
      className={`mx-auto mt-4 max-w-6xl rounded border-l-4 px-4 py-3 ${flashStyles[flash.kind]}`}
      data-testid="flash"
    >
      {flash.message}
    </div>
  ) : null;

  if (!interactive || !everFlashed) return banner;
  return (
    <Suspense fallback={banner}>
      <ToastStack flash={flash} />
    </Suspense>
  );
}
