import * as Toast from "@radix-ui/react-toast";
import { Link } from "react-router";
import { useEffect, useState, type CSSProperties } from "react";
import { Tooltip } from "~/components/ui/tooltip";
import { useTranslation } from "~/i18n/react";
import { flashActionClass, flashStyles, type ShownFlash } from "./flash-styles";
import { TOAST_SETTINGS, createToastQueue, type QueuedToast, type ToastQueue } from "./toast-queue";

/**
 * Later messages as Radix toasts (spec §9, decision 0109): bottom right, F8 to reach them, a swipe
 * to the right or the close button to dismiss. Stacked one behind the other, they spread out with
 * 16 px between them while hovered or focused, and their timers (and progress bars) stop.
 */
export default function ToastStack({ flash }: { flash: ShownFlash | null }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<ReadonlyArray<QueuedToast<ShownFlash>>>([]);
  const [queue] = useState<ToastQueue<ShownFlash>>(() => createToastQueue(setToasts));
  useEffect(() => () => queue.dispose(), [queue]);
  useEffect(() => {
    if (flash) queue.add(flash);
  }, [flash, queue]);

  return (
    <Toast.Provider
      // Read out before each toast's text by screen readers (Radix's default is English).
      label={t("flash.label")}
      duration={TOAST_SETTINGS.durationMs}
      swipeDirection={TOAST_SETTINGS.swipeDirection}
      swipeThreshold={TOAST_SETTINGS.swipeThresholdPx}
    >
      {toasts.map(({ toast, open }, index) => (
        <FlashToast
          key={toast.id}
          toast={toast}
          open={open}
          depth={toasts.length - 1 - index}
          onClose={() => queue.close(toast.id)}
        />
      ))}
      <Toast.Viewport
        hotkey={[...TOAST_SETTINGS.hotkey]}
        label={t("flash.region", { hotkey: "{hotkey}" })}
        className="group/toasts fixed right-4 bottom-4 z-50 grid w-96 max-w-[calc(100vw-2rem)] items-end gap-4 outline-none"
        data-testid="toasts"
      />
    </Toast.Provider>
  );
}

/** Collapsed, a toast sits behind the newer ones, `depth` steps up and smaller. */
const STACKED =
  "[grid-area:1/1] [translate:0_calc(var(--toast-depth)*-0.75rem)] [scale:calc(1-var(--toast-depth)*0.05)]";
const SPREAD =
  "group-hover/toasts:[grid-area:auto] group-hover/toasts:[translate:none] group-hover/toasts:[scale:none] group-focus-within/toasts:[grid-area:auto] group-focus-within/toasts:[translate:none] group-focus-within/toasts:[scale:none]";
const SWIPE =
  "data-[swipe=move]:[transform:translateX(var(--radix-toast-swipe-move-x))] data-[swipe=end]:[transform:translateX(var(--radix-toast-swipe-end-x))] data-[swipe=cancel]:transition-transform";

function FlashToast({
  toast,
  open,
  depth,
  onClose,
}: {
  toast: ShownFlash;
  open: boolean;
  depth: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [paused, setPaused] = useState(false);
  return (
    <Toast.Root
      open={open}
      onOpenChange={(stillOpen) => {
        if (!stillOpen) onClose();
      }}
      onPause={() => setPaused(true)}
      onResume={() => setPaused(false)}
      style={{ "--toast-depth": depth } as CSSProperties}
      className={`relative origin-bottom overflow-hidden rounded border-l-4 shadow-lg transition-[translate,scale] duration-200 motion-reduce:transition-none data-[state=closed]:animate-toast-out ${STACKED} ${SPREAD} ${SWIPE} ${flashStyles[toast.kind]}`}
      data-depth={depth}
      data-testid="flash"
    >
      <div className="flex items-start gap-3 px-4 py-3">
        <Toast.Description className="flex-1">{toast.message}</Toast.Description>
        {toast.action ? (
          <Toast.Action asChild altText={toast.action.label}>
            <Link to={toast.action.href} className={flashActionClass}>
              {toast.action.label}
            </Link>
          </Toast.Action>
        ) : null}
        <Tooltip content={t("flash.close")}>
          <Toast.Close className="rounded px-2 font-bold" aria-label={t("flash.close")}>
            ×
          </Toast.Close>
        </Tooltip>
      </div>
      {/* The time left before it closes by itself; it stops while the toasts are hovered. */}
      <div
        aria-hidden="true"
        className="animate-toast-progress absolute inset-x-0 bottom-0 h-1 origin-left bg-current opacity-40 data-[paused=true]:[animation-play-state:paused]"
        style={{ animationDuration: `${TOAST_SETTINGS.durationMs}ms` }}
        data-paused={paused}
        data-testid="toast-progress"
      />
    </Toast.Root>
  );
}
