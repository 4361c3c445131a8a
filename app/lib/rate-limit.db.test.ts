import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { databaseDriver, openDatabase, type Db } from "~/db/db.server";
import { createPostgresDatabase, databaseEngine } from "../../tests/support/test-database";
import { RateLimiter } from "./rate-limit";

const rule = { limit: 3, windowMs: 60_000 };
const opened: Db[] = [];

async function sharedLimiter(dataDir: string | null = null) {
  const db = await openDatabase({ dataDir });
  opened.push(db);
  return RateLimiter.shared(databaseDriver(db));
}

afterAll(async () => {
  for (const db of opened) await db.destroy().catch(() => undefined);
});

describe.each([
  ["in memory (unit tests)", async () => RateLimiter.inMemory()],
  ["in the database (SQLite)", () => sharedLimiter()],
])("RateLimiter %s", (_store, makeLimiter) => {
  beforeEach(() => {
    // The memory store forgets a window with a timer; the database compares dates.
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"], now: 1_000_000 });
  });
  afterEach(() => vi.useRealTimers());
  const advance = (ms: number) => vi.advanceTimersByTime(ms);

  it("allows the limit, refuses the next attempt and says when to come back", async () => {
    const limiter = await makeLimiter();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await limiter.consume([{ key: "user:a", rule }])).allowed).toBe(true);
    }
    advance(10_000);
    expect(await limiter.consume([{ key: "user:a", rule }])).toEqual({
      allowed: false,
      retryAfterSeconds: 50,
    });
  });

  it("opens again when the window ends", async () => {
    const limiter = await makeLimiter();
    for (let attempt = 0; attempt < 4; attempt++) await limiter.consume([{ key: "ip:1", rule }]);
    advance(60_000);
    expect((await limiter.consume([{ key: "ip:1", rule }])).allowed).toBe(true);
  });

  it("refuses when any key is over, and counts every key", async () => {
    const limiter = await makeLimiter();
    const wide = { limit: 100, windowMs: 60_000 };
    for (let attempt = 0; attempt < 3; attempt++) {
      await limiter.consume([
        { key: "ip:1", rule: wide },
        { key: "user:a", rule },
      ]);
    }
    // Another username from the same IP is fine; the same username from another IP is not.
    const otherUser = await limiter.consume([
      { key: "ip:1", rule: wide },
      { key: "user:b", rule },
    ]);
    expect(otherUser.allowed).toBe(true);
    const otherIp = await limiter.consume([
      { key: "ip:2", rule: wide },
      { key: "user:a", rule },
    ]);
    expect(otherIp.allowed).toBe(false);
  });

  it("keeps counting refused attempts, so hammering keeps the door shut", async () => {
    const limiter = await makeLimiter();
    for (let attempt = 0; attempt < 10; attempt++) await limiter.consume([{ key: "ip:9", rule }]);
    advance(30_000);
    expect(await limiter.check("ip:9", rule)).toEqual({ allowed: false, retryAfterSeconds: 30 });
  });

  it("keeps keys apart and forgets a key on reset", async () => {
    const limiter = await makeLimiter();
    for (let attempt = 0; attempt < 4; attempt++) await limiter.consume([{ key: "user:a", rule }]);
    expect((await limiter.consume([{ key: "user:b", rule }])).allowed).toBe(true);
    await limiter.reset("user:a");
    expect((await limiter.consume([{ key: "user:a", rule }])).allowed).toBe(true);
  });

  it("keeps one counter per key whatever rule counts it: the window opened holds, a refusal does not lengthen it", async () => {
    const limiter = await makeLimiter();
    const minute = { limit: 1, windowMs: 60_000 };
    const twoMinutes = { limit: 1, windowMs: 120_000 };
    expect((await limiter.consume([{ key: "gap:1", rule: minute }])).allowed).toBe(true);
    advance(30_000);
    expect(await limiter.consume([{ key: "gap:1", rule: twoMinutes }])).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
    });
    advance(30_000);
    expect((await limiter.consume([{ key: "gap:1", rule: twoMinutes }])).allowed).toBe(true);
    advance(60_000);
    expect(await limiter.consume([{ key: "gap:1", rule: minute }])).toEqual({
      allowed: false,
      retryAfterSeconds: 60,
    });
    expect(await limiter.used("gap:1", minute)).toBe(2);
    expect(await limiter.used("gap:2", minute)).toBe(0);
  });

  it("checks an account without counting: only its failures close it", async () => {
    const limiter = await makeLimiter();
    for (let failure = 0; failure < 3; failure++) {
      expect((await limiter.check("user:ana", rule)).allowed).toBe(true);
      await limiter.consume([{ key: "user:ana", rule }]);
    }
    expect(await limiter.check("user:ana", rule)).toEqual({
      allowed: false,
      retryAfterSeconds: 60,
    });
    expect((await limiter.check("user:ana", rule)).allowed).toBe(false);
    advance(60_000);
    expect((await limiter.check("user:ana", rule)).allowed).toBe(true);
  });
});

/**
 * Two limiters on one database, as two worker processes (or two machines) hold them: two
 * connections to one SQLite file in the "unit" project, two pools on one PostgreSQL database in
 * the "postgres" project (vitest.config.ts).
 */
async function limitersOfTwoProcesses(): Promise<[RateLimiter, RateLimiter]> {
  if (databaseEngine() === "postgres") {
    const url = await createPostgresDatabase();
    const limiters = [0, 1].map(() => {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      pools.push(pool);
      return RateLimiter.shared({ engine: "postgres", pool });
    });
    return [await limiters[0]!, await limiters[1]!];
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rate-limit-"));
  dataDirs.push(dataDir);
  return [await sharedLimiter(dataDir), await sharedLimiter(dataDir)];
}
const pools: pg.Pool[] = [];
const dataDirs: string[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
  for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
});

describe(`RateLimiter shared through the database (${databaseEngine()})`, () => {
  it("counts one limit for every process, checks without counting, and forgets on reset", async () => {
    const [first, second] = await limitersOfTwoProcesses();
    const key = "topup-line:5512345678";
    const verdicts = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const limiter = attempt % 2 === 0 ? first : second;
      verdicts.push((await limiter.consume([{ key, rule }])).allowed);
    }
    expect(verdicts).toEqual([true, true, true, false]);
    const refused = await second.check(key, rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(55);
    await second.reset(key);
    expect((await first.check(key, rule)).allowed).toBe(true);
  });

  it("keeps the window a key's count opened for every process, whatever rule counts it next", async () => {
    const [first, second] = await limitersOfTwoProcesses();
    const key = "line-code-gap:5512345678";
    expect((await first.consume([{ key, rule: { limit: 1, windowMs: 60_000 } }])).allowed).toBe(
      true,
    );
    const refused = await second.consume([{ key, rule: { limit: 1, windowMs: 120_000 } }]);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await second.used(key, { limit: 5, windowMs: 1000 })).toBe(2);
  });

  it("starts in many processes at once on a new database: each finds the one table", async () => {
    if (databaseEngine() !== "postgres") return;
    const url = await createPostgresDatabase();
    const starting = Array.from({ length: 8 }, () => {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      pools.push(pool);
      return RateLimiter.shared({ engine: "postgres", pool });
    });
    const limiters = await Promise.all(starting);
    expect((await limiters[7]!.consume([{ key: "ip:1", rule }])).allowed).toBe(true);
  });

  it("rejects with the store's own error when the database cannot answer", async () => {
    const db = await openDatabase({ dataDir: null });
    const limiter = await RateLimiter.shared(databaseDriver(db));
    await db.destroy();
    await expect(limiter.consume([{ key: "ip:1", rule }])).rejects.toThrow(/not open/);
  });
});
