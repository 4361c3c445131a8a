import { describe, expect, it } from "vitest";
import { isRecentAuthentication, RECENT_AUTHENTICATION_MS } from "./reauth";

describe("a recent authentication", () => {
  const now = Date.parse("2026-12-07T12:00:00Z");
  it("is one within the window", () => {
    expect(isRecentAuthentication(now, now)).toBe(true);
    expect(isRecentAuthentication(now - RECENT_AUTHENTICATION_MS + 1, now)).toBe(true);
  });
  it("is not one as old as the window or older, nor one that never happened", () => {
    expect(isRecentAuthentication(now - RECENT_AUTHENTICATION_MS, now)).toBe(false);
    expect(isRecentAuthentication(0, now)).toBe(false);
  });
  it("allows a minute of another clock's future, not more", () => {
    expect(isRecentAuthentication(now + 30_000, now)).toBe(true);
    expect(isRecentAuthentication(now + 5 * 60_000, now)).toBe(false);
  });
});
