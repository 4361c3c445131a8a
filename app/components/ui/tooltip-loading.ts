import type { TooltipModule } from "./tooltip-radix";

/** Marks a control that has a tooltip, so that nothing swaps it while it is pressed or focused. */
export const TOOLTIP_TRIGGER_ATTRIBUTE = "data-tooltip-trigger";

type Page = Pick<
  Window,
  "addEventListener" | "matchMedia" | "setTimeout" | "requestIdleCallback"
> & { document: Pick<Document, "activeElement"> };

/**
 * The tooltips' code (Radix and its positioning, about 20 KB) is not in the first load: the
 * JavaScript budget of a phone has no room for it, and a phone has no pointer that hovers. On a
 * device whose pointer hovers it is loaded when the page is idle; until then, and without
 * JavaScript, the controls are drawn as they are (each has its accessible name). Loading it
 * redraws the controls once, so that moment waits until no button is pressed and no control with
 * a tooltip has the focus: a click or a keystroke is never lost (decision 0109).
 */
export function createTooltipLoading(load: () => Promise<TooltipModule>) {
  let loaded: TooltipModule | null = null;
  let shown: TooltipModule | null = null;
  let requested = false;
  let pressed = false;
  const listeners = new Set<() => void>();

  function showWhenUndisturbed(page: Page) {
    if (!loaded || shown) return;
    const focused = page.document.activeElement;
    if (pressed || focused?.closest(`[${TOOLTIP_TRIGGER_ATTRIBUTE}]`)) return;
    shown = loaded;
    listeners.forEach((listener) => listener());
  }

  return {
    /** The tooltips' module once it may be drawn, else null (on the server too). */
    shown: () => shown,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Called by each tooltip once mounted; loads the code once, on a device that hovers. */
    request(page: Page) {
      if (requested) return;
      requested = true;
      if (!page.matchMedia("(hover: hover)").matches) return;
      const retry = () => page.setTimeout(() => showWhenUndisturbed(page), 0);
      page.addEventListener("pointerdown", () => (pressed = true), { capture: true });
      for (const release of ["pointerup", "pointercancel"]) {
        page.addEventListener(
          release,
          () => {
            pressed = false;
            retry();
          },
          { capture: true },
        );
      }
      page.addEventListener("focusout", retry, { capture: true });
      const whenIdle = page.requestIdleCallback
        ? (task: () => void) => page.requestIdleCallback(task)
        : (task: () => void) => page.setTimeout(task, 1);
      whenIdle(() => {
        load().then(
          (module) => {
            loaded = module;
            showWhenUndisturbed(page);
          },
          // Not loaded (offline, a deploy in between): the controls stay as they are.
          () => undefined,
        );
      });
    },
  };
}
