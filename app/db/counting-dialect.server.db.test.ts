import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresDatabase, databaseEngine } from "../../tests/support/test-database";
import {
  DATABASE_FILE_NAME,
  databasePool,
  databaseTimeout,
  openDatabase,
  type DatabaseTimeout,
  type Db,
} from "./db.server";

// The connections in use and waiting, and the timeouts, that the server's metrics read
// (decision 0110), on this run's engine.

let db: Db | undefined;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  await db?.destroy();
  db = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The run's engine, opened with the metrics' observer; one pooled connection on PostgreSQL. */
async function openObserved(timeouts: DatabaseTimeout[], statementTimeoutMs = 5_000) {
  if (databaseEngine() === "sqlite") {
    const dataDir = mkdtempSync(path.join(tmpdir(), "counting-dialect-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    return {
      dataDir,
      db: await openDatabase({
        dataDir,
        busyTimeoutMs: 50,
        onTimeout: (kind) => timeouts.push(kind),
      }),
    };
  }
  return {
    dataDir: null,
    db: await openDatabase({
      dataDir: null,
      databaseUrl: await createPostgresDatabase(),
      poolSize: 1,
      statementTimeoutMs,
      onTimeout: (kind) => timeouts.push(kind),
    }),
  };
}

describe(`the database pool as the metrics see it (${databaseEngine()})`, () => {
  it("counts the connection a transaction holds and the query waiting for it", async () => {
    const opened = await openObserved([]);
    db = opened.db;
    expect(databasePool(db)).toEqual({ engine: databaseEngine(), inUse: 0, waiting: 0 });
    let duringTransaction: ReturnType<typeof databasePool> = null;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A query outside the transaction waits for the one connection (SQLite has only one).
    const waiting = sql`select 2`.execute(db);
    await new Promise((resolve) => setTimeout(resolve, 50));
    duringTransaction = databasePool(db);
    release();
    await transaction;
    await waiting;
    expect(duringTransaction).toEqual({ engine: databaseEngine(), inUse: 1, waiting: 1 });
    expect(databasePool(db)).toEqual({ engine: databaseEngine(), inUse: 0, waiting: 0 });
  });

  it("is not counted for a database opened without an observer", async () => {
    db = await openDatabase({ dataDir: null });
    expect(databasePool(db)).toBeNull();
  });
});

describe.runIf(databaseEngine() === "sqlite")("SQLite's timeouts", () => {
  it("counts a lock wait past busy_timeout (another process holding the write lock)", async () => {
    const timeouts: DatabaseTimeout[] = [];
    const opened = await openObserved(timeouts);
    db = opened.db;
    const other = new SQLite(path.join(opened.dataDir!, DATABASE_FILE_NAME));
    other.exec("begin immediate");
    cleanups.push(() => {
      other.exec("rollback");
      other.close();
    });
    const failure = await db
      .transaction()
      .execute(async (trx) => sql`select 1`.execute(trx))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect((failure as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
    expect(timeouts).toEqual(["lock"]);
    // An error that is no timeout is not counted.
    await sql`select * from no_such_table`.execute(db).catch(() => undefined);
    expect(timeouts).toEqual(["lock"]);
  });
});

describe.runIf(databaseEngine() === "postgres")("PostgreSQL's timeouts", () => {
  it("counts a statement past statement_timeout and a wait for a pooled connection", async () => {
    const timeouts: DatabaseTimeout[] = [];
    const opened = await openObserved(timeouts, 200);
    db = opened.db;
    await expect(sql`select pg_sleep(1)`.execute(db)).rejects.toMatchObject({ code: "57014" });
    expect(timeouts).toEqual(["statement"]);

    // The pool's one connection held by a transaction: another query gives up waiting for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(sql`select 2`.execute(db)).rejects.toThrow(
      /timeout exceeded when trying to connect/,
    );
    release();
    await transaction;
    expect(timeouts).toEqual(["statement", "connection"]);
  });
});

describe("which errors are timeouts", () => {
  it("reads PostgreSQL's codes, SQLite's busy codes and the pool's own message", () => {
    expect(databaseTimeout({ code: "57014" })).toBe("statement");
    expect(databaseTimeout({ code: "55P03" })).toBe("lock");
    expect(databaseTimeout({ code: "SQLITE_BUSY" })).toBe("lock");
    expect(databaseTimeout({ code: "SQLITE_BUSY_SNAPSHOT" })).toBe("lock");
    expect(databaseTimeout(new Error("timeout exceeded when trying to connect"))).toBe(
      "connection",
    );
    expect(databaseTimeout({ code: "23505" })).toBeNull();
    expect(databaseTimeout({ code: "SQLITE_ERROR" })).toBeNull();
    expect(databaseTimeout(null)).toBeNull();
  });
});
