import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type pg from "pg";
import { Kysely, Migrator, sql } from "kysely";
import type { Logger } from "pino";
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

/**
 * Opens the embedded SQLite database (`:memory:` for tests) and brings its schema up to date.
 * The pragmas are connection settings, not query SQL: queries stay portable to PostgreSQL.
 */
export async function openDatabase(options: {
  dataDir: string | null;
  logger?: Pick<Logger, "info" | "error">;
  busyTimeoutMs?: number;
}): Promise<Db> {
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
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: connection }),
  });
  drivers.set(db, { engine: "sqlite", connection });
  try {
    await migrateToLatest(db, options.logger);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
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
 * True when the database could not do its work for a moment: locked by another process, out of
 * disk, or its file unreadable. The customer is asked to try again; nothing was half-written,
 * since every write that matters runs in one transaction.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && UNAVAILABLE_CODES.test(code);
}

const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|READONLY|PROTOCOL)(_|$)/;

export function nowIso(): string {
  return new Date().toISOString();
}
