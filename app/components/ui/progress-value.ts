/** Spec §9: a progress's maximum when none (or no usable one) is given. */
export const DEFAULT_PROGRESS_MAX = 100;

/**
 * What a progress bar shows for `value` out of `max`: the value held within 0 and the maximum, and
 * the share filled, 0 to 100. A maximum that is not a positive number is the default; a value that
 * is not a number counts as nothing done.
 */
export function progressValue(
  value: number,
  max: number = DEFAULT_PROGRESS_MAX,
): { value: number; max: number; percent: number } {
  const usableMax = Number.isFinite(max) && max > 0 ? max : DEFAULT_PROGRESS_MAX;
  const held = Number.isNaN(value) ? 0 : Math.min(usableMax, Math.max(0, value));
  return { value: held, max: usableMax, percent: (held / usableMax) * 100 };
}
