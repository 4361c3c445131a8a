import type { RateLimitRule } from "~/lib/rate-limit";

const WINDOW_MS = 15 * 60 * 1000;

/**
 * The status lookup answers to a folio and a number. Folios are sequential, so the lookups of one
 * number and of one address are limited: trying the folios of a stranger's number takes days.
 */
export const LOOKUP_LIMITS: { perIp: RateLimitRule; perLine: RateLimitRule } = {
  perIp: { limit: 30, windowMs: WINDOW_MS },
  perLine: { limit: 10, windowMs: WINDOW_MS },
};
