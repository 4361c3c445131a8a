import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, type Dialect, type SqliteDatabase } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { CountingDialect, type PoolCounters } from "./counting-dialect.server";
import { migrations } from "./migrations";
import { ImmediateSqliteDialect } from "./sqlite-immediate.server";
import type { Database } from "./schema";

export type Db = Kysely<Database>;

export const DATABASE_FILE_NAME = "storefront.sqlite";

/**
 * The driver under a Kysely instance, for the few libraries that keep their own tables through
 * it (shared rate limits). Queries of our own always go through Kysely.
 */
export type DatabaseDriver =
  { engine: "sqlite"; connection: SQLite.Database } | { engine: "postgres"; pool: pg.Pool };

const drivers = new WeakMap<Db, DatabaseDriver>();

export function databaseDriver(db: Db): DatabaseDriver {
  const driver = drivers.get(db);
  if (!driver)
    throw new Error("databaseDriver: this Kysely instance was not opened by openDatabase");
  return driver;
}

export interface OpenDatabaseOptions {
  /** SQLite's folder (`null`: `:memory:`, for tests); unused with `databaseUrl`. */
  dataDir: string | null;
  /** postgres:// or postgresql://: PostgreSQL instead of SQLite (decision 0074). */
  databaseUrl?: string | null;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  /** SQLite: how long a write waits for another process's lock. */
  busyTimeoutMs?: number;
  /** PostgreSQL: connections this process keeps at most. */
  poolSize?: number;
  /** PostgreSQL: the longest a statement may run, and the longest the wait for a connection. */
  statementTimeoutMs?: number;
  /**
   * Told of every statement that gave up waiting (the server's metrics, decision 0110); given,
   * the connections in use and waiting are counted too (`databasePool`).
   */
  onTimeout?: (kind: DatabaseTimeout) => void;
}

/** What a statement that gave up was waiting for (databaseTimeout). */
export type DatabaseTimeout = "statement" | "lock" | "connection";

/**
 * Whether an error is a statement that gave up waiting, and on what: PostgreSQL's
 * statement_timeout (57014) or lock_timeout (55P03), SQLite's busy_timeout (another process held
 * the lock), or no pooled connection free in time. Every other error is null.
 */
export function databaseTimeout(error: unknown): DatabaseTimeout | null {
  if (!error || typeof error !== "object") return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === "57014") return "statement";
  if (code === "55P03") return "lock";
  if (typeof code === "string" && /^SQLITE_BUSY(_|$)/.test(code)) return "lock";
  if (
    typeof message === "string" &&
    message.startsWith("timeout exceeded when trying to connect")
  ) {
    return "connection";
  }
  return null;
}

const pools = new WeakMap<Db, { engine: "sqlite" | "postgres"; counters: PoolCounters }>();

/**
 * The connections in use and the queries waiting for one, for a database opened with
 * `onTimeout`; null otherwise. SQLite has one connection, which a transaction holds throughout.
 */
export function databasePool(
  db: Db,
): { engine: "sqlite" | "postgres"; inUse: number; waiting: number } | null {
  const pool = pools.get(db);
  return pool ? { engine: pool.engine, ...pool.counters } : null;
}

/** Kysely on `dialect`, counted when the opener wants its timeouts told. */
function kyselyOn(
  dialect: Dialect,
  engine: "sqlite" | "postgres",
  onTimeout: OpenDatabaseOptions["onTimeout"],
): Db {
  if (!onTimeout) return new Kysely<Database>({ dialect });
  const counting = new CountingDialect(dialect, (error) => {
    const kind = databaseTimeout(error);
    if (kind) onTimeout(kind);
  });
  const db = new Kysely<Database>({ dialect: counting });
  pools.set(db, { engine, counters: counting.counters });
  return db;
}

/**
 * Opens the database and brings its schema up to date: PostgreSQL when `databaseUrl` is given,
 * otherwise the embedded SQLite file under `dataDir`. The same migrations and queries serve both.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Db> {
  const db = options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options);
  try {
    await migrateToLatest(db, options.logger);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/**
 * The embedded SQLite database (`:memory:` for tests). The pragmas are connection settings, not
 * query SQL: queries stay portable to PostgreSQL.
 */
function openSqlite(options: OpenDatabaseOptions): Db {
  let file = ":memory:";
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    file = path.join(options.dataDir, DATABASE_FILE_NAME);
  }
  const connection = new SQLite(file);
  // WAL lets readers go on while another process writes. This process writes through one
  // connection, so only another process (a backup, the sqlite3 shell) holds a lock it waits on;
  // the wait is synchronous, so it stays short and the customer is asked to retry instead.
  connection.pragma("journal_mode = WAL");
  connection.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 500)}`);
  connection.pragma("foreign_keys = ON");
  connection.pragma("synchronous = NORMAL");
  const db = kyselyOn(
    new ImmediateSqliteDialect({ database: withPreparedStatementCache(connection) }),
    "sqlite",
    options.onTimeout,
  );
  drivers.set(db, { engine: "sqlite", connection });
  return db;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/**
 * bigint (count(*)) comes back from pg as a string, to be exact beyond 2^53; our counts and
 * integers are far below that, so it is read as a number, as SQLite gives it.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function openPostgres(connectionString: string, options: OpenDatabaseOptions): Db {
  const statementTimeoutMs = Math.trunc(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    // A statement stuck behind a lock, or a pool with every connection busy, gives up in the
    // same time: the customer is asked to try again instead of waiting on a spinner.
    statement_timeout: statementTimeoutMs,
    lock_timeout: statementTimeoutMs,
    connectionTimeoutMillis: statementTimeoutMs,
    idleTimeoutMillis: 30_000,
    application_name: "storefront",
    types: pgTypes,
  });
  // A connection lost while idle in the pool (the server restarted) must not end the process:
  // the pool drops it and opens another on the next query.
  pool.on("error", (error) => {
    options.logger?.warn({
      msg: "database connection lost",
      code: (error as { code?: unknown }).code ?? null,
    });
  });
  // A connection lost while checked out (a query or a transaction in progress) emits "error" on
  // its client, which the pool listens to only while the client is idle: unheard, it would end
  // the process. The query in progress fails on its own (503 for the customer) and the pool
  // drops the client when it comes back, so nothing more is needed here.
  pool.on("connect", (client) => client.on("error", () => undefined));
  const db = kyselyOn(new PostgresDialect({ pool }), "postgres", options.onTimeout);
  drivers.set(db, { engine: "postgres", pool });
  return db;
}

/** The most different statements kept prepared; the app has a few hundred. */
const PREPARED_STATEMENT_LIMIT = 500;

/**
 * Kysely prepares every query again; preparing costs more than running most of ours (a tenth of an
 * account page's time). One connection runs one query at a time, so a statement is never in use
 * twice, and SQLite re-prepares it by itself after a schema change.
 */
function withPreparedStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (statement) {
        // Most recently used last, so the oldest unused one goes first.
        statements.delete(sqlText);
      } else {
        statement = connection.prepare(sqlText);
        if (statements.size >= PREPARED_STATEMENT_LIMIT) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

export async function migrateToLatest(db: Db, logger?: Pick<Logger, "info">) {
  const migrator = new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Success")
      logger?.info({ msg: "migration applied", name: result.migrationName });
    if (result.status === "Error") {
      throw new Error(`Migration ${result.migrationName} failed`, { cause: error });
    }
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Resolves when the database answers a trivial query (GET /readyz). */
export async function checkDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * True for a unique-constraint violation in SQLite or PostgreSQL: two requests racing to insert
 * the same key, where the loser should read the winner's row.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "23505"
  );
}

/**
 * True when the database could not do its work for a moment: SQLite locked by another process,
 * out of disk or its file unreadable; PostgreSQL unreachable, restarting, out of connections, or
 * a statement past its timeout. The customer is asked to try again; nothing was half-written,
 * since every write that matters runs in one transaction.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message, errors } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (SQLITE_UNAVAILABLE.test(code) || POSTGRES_UNAVAILABLE.test(code)) return true;
    if (NETWORK_UNAVAILABLE.has(code)) return true;
  }
  // pg's pool and client say these in words only, without a code.
  if (typeof message === "string" && POOL_UNAVAILABLE.test(message)) return true;
  // A host name with several addresses fails with one error per address.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|PROTOCOL)(_|$)/;
/**
 * SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources (too many
 * connections, disk full), 57P01–57P03 shutdown or not yet accepting connections, 57014 statement
 * timeout, 55P03 lock timeout, 40001 and 40P01 a serialization failure or deadlock (try again).
 */
const POSTGRES_UNAVAILABLE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123]|57014|55P03|40001|40P01)$/;
const NETWORK_UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
const POOL_UNAVAILABLE =
  /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Query read timeout)/;

export function nowIso(): string {
  return new Date().toISOString();
}
