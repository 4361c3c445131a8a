import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useSyncExternalStore, type ReactElement } from "react";
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, tooltipDelays } from "./tooltip-delays";

/**
 * A Radix tooltip on `children` (its trigger, which takes a ref and Radix's handlers): loaded only
 * where it can show (tooltip.tsx). Each has its own provider; the skip across them is
 * tooltip-delays.ts's.
 */
function TooltipOn({ content, children }: { content: string; children: ReactElement }) {
  const delay = useSyncExternalStore(
    tooltipDelays.subscribe,
    tooltipDelays.delay,
    () => TOOLTIP_DELAY_MS,
  );
  return (
    <RadixTooltip.Provider
      delayDuration={TOOLTIP_DELAY_MS}
      skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}
    >
      <RadixTooltip.Root
        delayDuration={delay}
        onOpenChange={(open) => (open ? tooltipDelays.opened() : tooltipDelays.closed())}
      >
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            side="bottom"
            sideOffset={6}
            collisionPadding={8}
            className="z-50 max-w-xs rounded bg-slate-900 px-2 py-1 text-sm text-white shadow-md"
            data-testid="tooltip"
          >
            {content}
            <RadixTooltip.Arrow className="fill-slate-900" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}

const tooltipModule = { TooltipOn };
export type TooltipModule = typeof tooltipModule;
export default tooltipModule;
