import * as Toast from "@radix-ui/react-toast";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ShellData } from "~/lib/shell";

/** Spec §9 toast settings. */
const TOAST_DURATION_MS = 5_000;
const MAX_TOASTS = 5;
const SWIPE_THRESHOLD_PX = 50;

type ShownFlash = NonNullable<ShellData["flash"]>;

const kindStyles: Record<ShownFlash["kind"], string> = {
  success: "border-primary bg-primary-soft text-primary-dark",
  error: "border-error bg-error-soft text-error",
  info: "border-secondary bg-secondary-soft text-secondary-dark",
};

/**
 * The server renders the message in the page, so it shows without JavaScript; once the page is
 * interactive the same messages become Radix toasts.
 */
export function FlashToasts({ flash }: { flash: ShellData["flash"] }) {
  const { t } = useTranslation();
  const [interactive, setInteractive] = useState(false);
  const [toasts, setToasts] = useState<ShownFlash[]>(flash ? [flash] : []);

  useEffect(() => setInteractive(true), []);
  useEffect(() => {
    if (!flash) return;
    setToasts((current) =>
      current.some((toast) => toast.id === flash.id)
        ? current
        : [...current, flash].slice(-MAX_TOASTS),
    );
  }, [flash]);

  if (!interactive) {
    return flash ? (
      <div
        role="status"
        className={`mx-auto mt-4 max-w-6xl rounded border-l-4 px-4 py-3 ${kindStyles[flash.kind]}`}
        data-testid="flash"
      >
        {flash.message}
      </div>
    ) : null;
  }

  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
    >
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`flex items-start gap-3 rounded border-l-4 px-4 py-3 shadow-lg ${kindStyles[toast.kind]}`}
          onOpenChange={(open) => {
            if (!open) {
              // Removed 200 ms after closing (spec §4), once the closing animation ends.
              setTimeout(
                () => setToasts((current) => current.filter((item) => item.id !== toast.id)),
                200,
              );
            }
          }}
          data-testid="flash"
        >
          <Toast.Description className="flex-1">{toast.message}</Toast.Description>
          <Toast.Close className="rounded px-2 font-bold" aria-label={t("flash.close")}>
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        label={t("flash.region", { hotkey: "{hotkey}" })}
        className="fixed bottom-4 right-4 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-4"
      />
    </Toast.Provider>
  );
}
