/**
 * How recent an authentication a sensitive change needs (decision 0134): adding a passkey,
 * turning the second factor off or changing it, a saved card paying for a number that is not one
 * of the account's lines. A copied session cookie alone then changes nothing that outlives it.
 */
export const RECENT_AUTHENTICATION_MS = 10 * 60 * 1000;

/** A little of the future is allowed for (two servers' clocks); more is not believed. */
const CLOCK_SKEW_MS = 60 * 1000;

/** Whether an authentication at `authenticatedAt` (epoch ms) is recent at `now`. */
export function isRecentAuthentication(
  authenticatedAt: number,
  now: number,
  windowMs: number = RECENT_AUTHENTICATION_MS,
): boolean {
  return authenticatedAt <= now + CLOCK_SKEW_MS && now - authenticatedAt < windowMs;
}
