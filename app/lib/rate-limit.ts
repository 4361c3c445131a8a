/**
 * Fixed-window attempt counters kept in memory, one per key (an IP address or a username).
 * Per process: behind several servers each counts on its own, which still bounds guessing per
 * server; Cognito's own throttling stays the last line.
 */

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitVerdict {
  allowed: boolean;
  /** Seconds until the window that refused resets; 0 when allowed. */
  retryAfterSeconds: number;
}

interface Window {
  count: number;
  resetAt: number;
}

/** Above this many keys, expired windows are swept so that memory stays bounded. */
const SWEEP_THRESHOLD = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Counts one attempt against every key and says whether all of them are still within their
   * rule. A refused attempt still counts, so hammering keeps the door shut.
   */
  consume(entries: Array<{ key: string; rule: RateLimitRule }>): RateLimitVerdict {
    const now = this.now();
    if (this.windows.size > SWEEP_THRESHOLD) this.sweep(now);
    let retryAfterMs = 0;
    for (const { key, rule } of entries) {
      let window = this.windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + rule.windowMs };
        this.windows.set(key, window);
      }
      window.count += 1;
      if (window.count > rule.limit) retryAfterMs = Math.max(retryAfterMs, window.resetAt - now);
    }
    return retryAfterMs > 0
      ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
      : { allowed: true, retryAfterSeconds: 0 };
  }

  /** Whether one more attempt under this key would still be within its rule; counts nothing. */
  check(key: string, rule: RateLimitRule): RateLimitVerdict {
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now || window.count < rule.limit) {
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    };
  }

  /** Forgets a key, e.g. a username after a successful sign-in. */
  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }
}
