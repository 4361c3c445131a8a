/** Spec §9: the home page's bar changes style past 0 px and colour past 100 px of scroll. */
export const SCROLL_STYLE_THRESHOLD_PX = 0;
export const SCROLL_COLOUR_THRESHOLD_PX = 100;

export type ScrollStage = "top" | "scrolled" | "deep";

export function scrollStage(scrollY: number): ScrollStage {
  if (scrollY > SCROLL_COLOUR_THRESHOLD_PX) return "deep";
  if (scrollY > SCROLL_STYLE_THRESHOLD_PX) return "scrolled";
  return "top";
}
