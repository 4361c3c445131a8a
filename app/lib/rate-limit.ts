import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { DatabaseDriver } from "~/db/db.server";

/**
 * Fixed-window attempt counters, one per key (an IP address, a username, a line), kept by
 * rate-limiter-flexible in the database (decision 0075): every worker process and every machine
 * on the same database counts against one limit. The memory store is for unit tests only.
 *
 * When the store cannot be reached, `consume`, `check` and `reset` reject with the store's own
 * error (SQLITE_BUSY, a PostgreSQL connection error…): each form answers it with its Spanish
 * "try again" (503), as it does for any write the database cannot take.
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

/** The table rate-limiter-flexible creates and keeps (not one of our migrations). */
export const RATE_LIMIT_TABLE = "rate_limits";

const ALLOWED: RateLimitVerdict = { allowed: true, retryAfterSeconds: 0 };

function refused(msBeforeNext: number): RateLimitVerdict {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)) };
}

type LimiterOptions = { points: number; duration: number; keyPrefix: string };
type LimiterFactory = (options: LimiterOptions) => RateLimiterAbstract;

export interface RateLimiterOptions {
  /** Told of each key found over its rule (the server's metrics count them by limiter). */
  onRefused?: (key: string) => void;
}

export class RateLimiter {
  /** One library limiter per rule (its points and window); they share one table. */
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  private constructor(
    private readonly createLimiter: LimiterFactory,
    private readonly onRefused: (key: string) => void = () => undefined,
  ) {}

  /**
   * Counters in this process's memory: unit tests only. Its limiters share one store, as the
   * database's share one table: a key names one counter whatever the rule it is counted by.
   */
  static inMemory(options: RateLimiterOptions = {}): RateLimiter {
    let store: unknown;
    return new RateLimiter((options) => {
      const limiter = new RateLimiterMemory(options) as RateLimiterMemory & {
        _memoryStorage: unknown;
      };
      store ??= limiter._memoryStorage;
      limiter._memoryStorage = store;
      return limiter;
    }, options.onRefused);
  }

  /**
   * Counters in the database behind `driver`. The library creates its table if it is missing
   * (CREATE TABLE IF NOT EXISTS); this resolves once it exists, so no request meets a store that
   * is not ready. Several processes may start together: on PostgreSQL the loser of that race is
   * answered with an error although the table exists, and tries once more.
   */
  static async shared(
    driver: DatabaseDriver,
    limiterOptions: RateLimiterOptions = {},
  ): Promise<RateLimiter> {
    const storeOptions =
      driver.engine === "sqlite"
        ? { storeClient: driver.connection, storeType: "better-sqlite3" as const }
        : { storeClient: driver.pool };
    const create = (
      options: LimiterOptions,
      tableCreated: boolean,
      ready?: (error?: Error) => void,
    ) => {
      const common = {
        ...options,
        ...storeOptions,
        tableName: RATE_LIMIT_TABLE,
        tableCreated,
        // Expired rows are deleted by the library every 5 minutes (one process is enough, but
        // each doing it is harmless: the DELETE touches only rows an hour past their window).
        clearExpiredByTimeout: true,
      };
      return driver.engine === "sqlite"
        ? new RateLimiterSQLite(common, ready)
        : new RateLimiterPostgres(common, ready);
    };
    const createTable = () =>
      new Promise<void>((resolve, reject) => {
        create({ points: 1, duration: 1, keyPrefix: "" }, false, (error) =>
          error ? reject(error) : resolve(),
        );
      });
    await createTable().catch((error: unknown) => {
      // PostgreSQL: two processes creating the table at once, one loses on the table's row type
      // (duplicate_object or unique_violation) although IF NOT EXISTS; the table exists by then.
      if (!isConcurrentCreation(error)) throw error;
      return createTable();
    });
    return new RateLimiter((options) => create(options, true), limiterOptions.onRefused);
  }

  private limiterFor(rule: RateLimitRule): RateLimiterAbstract {
    const id = `${rule.limit}/${rule.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      // No prefix: a key names its counter whatever the rule, so `reset` needs no rule.
      limiter = this.createLimiter({
        points: rule.limit,
        duration: rule.windowMs / 1000,
        keyPrefix: "",
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /**
   * Counts one attempt against every key and says whether all of them are still within their
   * rule. A refused attempt still counts, so hammering keeps the door shut.
   */
  async consume(entries: Array<{ key: string; rule: RateLimitRule }>): Promise<RateLimitVerdict> {
    const results = await Promise.all(
      entries.map(({ key, rule }) =>
        this.limiterFor(rule)
          .consume(key)
          .then(
            () => 0,
            (rejection: unknown) => {
              // Over the limit: the library rejects with the counter; anything else is the store.
              if (!(rejection instanceof RateLimiterRes)) throw rejection;
              this.onRefused(key);
              return Math.max(1, rejection.msBeforeNext);
            },
          ),
      ),
    );
    const retryAfterMs = Math.max(0, ...results);
    return retryAfterMs > 0 ? refused(retryAfterMs) : ALLOWED;
  }

  /** Whether one more attempt under this key would still be within its rule; counts nothing. */
  async check(key: string, rule: RateLimitRule): Promise<RateLimitVerdict> {
    const counter = await this.limiterFor(rule).get(key);
    if (!counter || counter.consumedPoints < rule.limit) return ALLOWED;
    this.onRefused(key);
    return refused(counter.msBeforeNext);
  }

  /** The attempts counted under this key in its current window (0 when none). */
  async used(key: string, rule: RateLimitRule): Promise<number> {
    const counter = await this.limiterFor(rule).get(key);
    return counter?.consumedPoints ?? 0;
  }

  /** Forgets a key, e.g. a username after a successful sign-in. */
  async reset(key: string): Promise<void> {
    const any =
      this.limiters.values().next().value ?? this.limiterFor({ limit: 1, windowMs: 1000 });
    await any.delete(key);
  }
}

/** PostgreSQL's answer to a CREATE TABLE IF NOT EXISTS that raced another one. */
function isConcurrentCreation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "42710" || code === "23505" || code === "42P07";
}
