/** Spec §9 toast settings (decision 0109). */
export const TOAST_SETTINGS = {
  durationMs: 5_000,
  maxVisible: 5,
  removeAfterCloseMs: 200,
  swipeThresholdPx: 50,
  /** Swiping follows the position: a toast at the bottom right leaves to the right. */
  swipeDirection: "right",
  hotkey: ["F8"],
} as const;

export interface QueuedToast<T> {
  toast: T;
  /** False from its closing until it is removed, while it leaves the screen. */
  open: boolean;
}

export interface ToastQueue<T> {
  /** Shows `toast` after the others, once per id; past the maximum, the oldest leaves at once. */
  add(toast: T): void;
  /** Closes the toast with `id`; it is removed `removeAfterCloseMs` later. */
  close(id: string): void;
  /** Forgets pending removals (the stack is going away). */
  dispose(): void;
}

/**
 * The toasts on screen, in order of arrival, each reported to `onChange` as a new list: at most
 * `maxVisible` open ones, and a closed one kept for `removeAfterCloseMs`, the time its exit takes.
 */
export function createToastQueue<T extends { id: string }>(
  onChange: (toasts: ReadonlyArray<QueuedToast<T>>) => void,
  settings: Pick<typeof TOAST_SETTINGS, "maxVisible" | "removeAfterCloseMs"> = TOAST_SETTINGS,
): ToastQueue<T> {
  let toasts: ReadonlyArray<QueuedToast<T>> = [];
  const removals = new Map<string, ReturnType<typeof setTimeout>>();
  const publish = (next: ReadonlyArray<QueuedToast<T>>) => {
    toasts = next;
    onChange(toasts);
  };
  const drop = (id: string) => {
    clearTimeout(removals.get(id));
    removals.delete(id);
    publish(toasts.filter((entry) => entry.toast.id !== id));
  };

  return {
    add(toast) {
      if (toasts.some((entry) => entry.toast.id === toast.id)) return;
      let next = [...toasts, { toast, open: true }];
      const open = next.filter((entry) => entry.open);
      const excess = new Set(
        open.slice(0, Math.max(0, open.length - settings.maxVisible)).map((e) => e.toast.id),
      );
      for (const id of excess) {
        clearTimeout(removals.get(id));
        removals.delete(id);
      }
      next = next.filter((entry) => !excess.has(entry.toast.id));
      publish(next);
    },
    close(id) {
      const entry = toasts.find((candidate) => candidate.toast.id === id);
      if (!entry || !entry.open) return;
      publish(toasts.map((other) => (other === entry ? { ...other, open: false } : other)));
      removals.set(
        id,
        setTimeout(() => drop(id), settings.removeAfterCloseMs),
      );
    },
    dispose() {
      for (const timer of removals.values()) clearTimeout(timer);
      removals.clear();
    },
  };
}
