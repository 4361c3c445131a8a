/** Spec §9: a tooltip opens 700 ms after the pointer rests on its control… */
export const TOOLTIP_DELAY_MS = 700;
/** …and at once when another closed less than 300 ms before (moving along a row of icons). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

export interface TooltipDelays {
  /** The delay before a tooltip opens, now. */
  delay(): number;
  opened(): void;
  closed(): void;
  subscribe(listener: () => void): () => void;
}

/**
 * The delays shared by every tooltip of the page: Radix skips the delay within one provider, and
 * each of ours has its own (decision 0109), so the skip across them is kept here, with timers.
 */
export function createTooltipDelays(
  delayMs = TOOLTIP_DELAY_MS,
  skipMs = TOOLTIP_SKIP_DELAY_MS,
): TooltipDelays {
  let open = 0;
  let skipping = false;
  let skipEnds: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  const setSkipping = (value: boolean) => {
    if (skipping === value) return;
    skipping = value;
    notify();
  };
  return {
    delay: () => (skipping ? 0 : delayMs),
    opened() {
      open += 1;
      clearTimeout(skipEnds);
      setSkipping(true);
    },
    closed() {
      open = Math.max(0, open - 1);
      if (open > 0) return;
      clearTimeout(skipEnds);
      skipEnds = setTimeout(() => setSkipping(false), skipMs);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's tooltips' delays. */
export const tooltipDelays = createTooltipDelays();
