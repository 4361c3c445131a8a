import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

const rule = { limit: 3, windowMs: 60_000 };

describe("RateLimiter", () => {
  it("allows the limit, refuses the next attempt and says when to come back", () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(() => now);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(limiter.consume([{ key: "user:a", rule }]).allowed).toBe(true);
    }
    now += 10_000;
    expect(limiter.consume([{ key: "user:a", rule }])).toEqual({
      allowed: false,
      retryAfterSeconds: 50,
    });
  });

  it("opens again when the window ends", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let attempt = 0; attempt < 4; attempt++) limiter.consume([{ key: "ip:1", rule }]);
    now += 60_000;
    expect(limiter.consume([{ key: "ip:1", rule }]).allowed).toBe(true);
  });

  it("refuses when any key is over, and counts every key", () => {
    const limiter = new RateLimiter(() => 0);
    const wide = { limit: 100, windowMs: 60_000 };
    for (let attempt = 0; attempt < 3; attempt++) {
      limiter.consume([
        { key: "ip:1", rule: wide },
        { key: "user:a", rule },
      ]);
    }
    // Another username from the same IP is fine; the same username from another IP is not.
    expect(
      limiter.consume([
        { key: "ip:1", rule: wide },
        { key: "user:b", rule },
      ]).allowed,
    ).toBe(true);
    expect(
      limiter.consume([
        { key: "ip:2", rule: wide },
        { key: "user:a", rule },
      ]).allowed,
    ).toBe(false);
  });

  it("keeps keys apart and forgets a key on reset", () => {
    const limiter = new RateLimiter(() => 0);
    for (let attempt = 0; attempt < 4; attempt++) limiter.consume([{ key: "user:a", rule }]);
    expect(limiter.consume([{ key: "user:b", rule }]).allowed).toBe(true);
    limiter.reset("user:a");
    expect(limiter.consume([{ key: "user:a", rule }]).allowed).toBe(true);
  });

  it("sweeps expired windows so memory stays bounded", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let index = 0; index < 10_001; index++) limiter.consume([{ key: `ip:${index}`, rule }]);
    now += 60_001;
    limiter.consume([{ key: "ip:new", rule }]);
    expect(limiter.size).toBe(1);
  });

  it("checks an account without counting: only its failures close it", () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    for (let failure = 0; failure < 3; failure++) {
      expect(limiter.check("user:ana", rule).allowed).toBe(true);
      limiter.consume([{ key: "user:ana", rule }]);
    }
    expect(limiter.check("user:ana", rule)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(limiter.check("user:ana", rule).allowed).toBe(false);
    now += 60_000;
    expect(limiter.check("user:ana", rule).allowed).toBe(true);
  });
});
