import type { RateLimitRule } from "~/lib/rate-limit";

const WINDOW_MS = 15 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The status lookup answers to a folio and a number. Folios are sequential, so the lookups of one
 * number and of one address are limited, by the quarter hour and by the day: a customer checking
 * their own request never meets the limits, and trying a stranger's recent folios takes weeks.
 */
export const LOOKUP_LIMITS: Record<"perIp" | "perLine" | "perLinePerDay", RateLimitRule> = {
  perIp: { limit: 30, windowMs: WINDOW_MS },
  perLine: { limit: 10, windowMs: WINDOW_MS },
  perLinePerDay: { limit: 20, windowMs: DAY_MS },
};
