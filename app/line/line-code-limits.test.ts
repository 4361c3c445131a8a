import { describe, expect, it } from "vitest";
import {
  NUMBER_BACKOFF_MAX_FACTOR,
  NUMBER_CODES_PER_HOUR_AT_MOST,
  numberBackoffMs,
} from "./line-code-limits";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("the back-off between codes to one number", () => {
  it("starts at the base and doubles up to 15 times it", () => {
    const gaps = [1, 2, 3, 4, 5, 6, 20].map((sent) => numberBackoffMs(sent, MINUTE) / MINUTE);
    expect(gaps).toEqual([1, 2, 4, 8, 15, 15, 15]);
    expect(numberBackoffMs(1000, MINUTE)).toBe(NUMBER_BACKOFF_MAX_FACTOR * MINUTE);
  });

  it("is none with a base of 0", () => {
    expect(numberBackoffMs(3, 0)).toBe(0);
  });

  it("lets a flood that asks the moment each back-off ends reach a phone 7 times an hour at most", () => {
    // The number's hour is a fixed window from its first code (the rate limiter's counters).
    const sentAt: number[] = [];
    let windowStart = 0;
    let sentInWindow = 0;
    for (let now = 0; now < 5 * HOUR;) {
      if (now >= windowStart + HOUR) {
        windowStart = now;
        sentInWindow = 0;
      }
      sentInWindow += 1;
      sentAt.push(now);
      now += numberBackoffMs(sentInWindow, MINUTE);
    }
    const mostInAnyHour = Math.max(
      ...sentAt.map((start) => sentAt.filter((at) => at >= start && at < start + HOUR).length),
    );
    expect(mostInAnyHour).toBe(NUMBER_CODES_PER_HOUR_AT_MOST);
  });
});
