/**
 * How SMS codes to one number are spaced (decision 0135): after each code sent to a number, the
 * next waits a back-off that doubles with the codes the number was sent this hour, from the base
 * (LINE_CODE_NUMBER_BACKOFF_SECONDS, 60 s) to NUMBER_BACKOFF_MAX_FACTOR times it (15 minutes).
 * Whoever asks waits at most that long; a flood from many addresses reaches the owner's phone at
 * most NUMBER_CODES_PER_HOUR_AT_MOST times an hour.
 */

/** The longest back-off, in bases: 15 minutes with the 60 s base. */
export const NUMBER_BACKOFF_MAX_FACTOR = 15;

/** What the schedule lets through in the number's hour (tested against the schedule). */
export const NUMBER_CODES_PER_HOUR_AT_MOST = 7;

/**
 * The back-off that follows the `sentThisHour`-th code sent to a number in its hour (1 for the
 * first): 1, 2, 4, 8, then 15 bases. 0 when the base is 0 (no back-off: test servers).
 */
export function numberBackoffMs(sentThisHour: number, baseMs: number): number {
  if (baseMs <= 0) return 0;
  const doublings = Math.max(0, Math.min(sentThisHour - 1, 10));
  return baseMs * Math.min(2 ** doublings, NUMBER_BACKOFF_MAX_FACTOR);
}
