import { cloneElement, useEffect, useSyncExternalStore, type ReactElement } from "react";
import { TOOLTIP_TRIGGER_ATTRIBUTE, createTooltipLoading } from "./tooltip-loading";

const loading = createTooltipLoading(() =>
  import("./tooltip-radix").then((module) => module.default),
);

/**
 * A short text shown beside an icon-only control while the pointer rests on it (after 700 ms, at
 * once when moving from one to the next, spec §9) or while it has the keyboard's focus. The
 * control keeps its own accessible name; the tooltip shows it to those who see the icon only.
 * `children`: one element that takes a ref and event handlers (a link, a button).
 */
export function Tooltip({
  content,
  children,
}: {
  content: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const loaded = useSyncExternalStore(loading.subscribe, loading.shown, () => null);
  useEffect(() => loading.request(window), []);
  const trigger = cloneElement(children, { [TOOLTIP_TRIGGER_ATTRIBUTE]: "" });
  return loaded ? <loaded.TooltipOn content={content}>{trigger}</loaded.TooltipOn> : trigger;
}
