import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit";

describe("rate limit refusals, as the metrics count them", () => {
  it("tells each key found over its rule, by consume and by check, and nothing within it", async () => {
    const refused: string[] = [];
    const limiter = RateLimiter.inMemory({ onRefused: (key) => refused.push(key) });
    const rule = { limit: 2, windowMs: 60_000 };
    const other = { limit: 10, windowMs: 60_000 };
    for (let attempt = 0; attempt < 3; attempt++) {
      await limiter.consume([
        { key: "topup-ip:203.0.113.7", rule },
        { key: "topup-line:5512345678:203.0.113.7", rule: other },
      ]);
    }
    expect(refused).toEqual(["topup-ip:203.0.113.7"]);
    await limiter.check("topup-ip:203.0.113.7", rule);
    await limiter.check("user:ana@example.com", rule);
    expect(refused).toEqual(["topup-ip:203.0.113.7", "topup-ip:203.0.113.7"]);
  });
});
