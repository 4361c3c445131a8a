import * as Toast from "@radix-ui/react-toast";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { flashStyles, type ShownFlash } from "./flash-styles";

/** Spec §9 toast settings. */
const TOAST_DURATION_MS = 5_000;
const MAX_TOASTS = 5;
const SWIPE_THRESHOLD_PX = 50;
const REMOVE_AFTER_CLOSE_MS = 200;

/** Flash messages as Radix toasts: bottom-right, F8 to focus, swipe right or close to dismiss. */
export default function ToastStack({ flash }: { flash: ShownFlash | null }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<ShownFlash[]>(flash ? [flash] : []);

  useEffect(() => {
    if (!flash) return;
    setToasts((current) =>
      current.some((toast) => toast.id === flash.id)
        ? current
        : [...current, flash].slice(-MAX_TOASTS),
    );
  }, [flash]);

  const remove = (id: string) =>
    setTimeout(
      () => setToasts((current) => current.filter((item) => item.id !== id)),
      REMOVE_AFTER_CLOSE_MS,
    );

  return (
    <Toast.Provider
      // Read out before each toast's text by screen readers (Radix's default is English).
      label={t("flash.label")}
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
    >
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`flex items-start gap-3 rounded border-l-4 px-4 py-3 shadow-lg ${flashStyles[toast.kind]}`}
          onOpenChange={(open) => {
            if (!open) remove(toast.id);
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
        className="fixed right-4 bottom-4 z-50 flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-4"
      />
    </Toast.Provider>
  );
}
