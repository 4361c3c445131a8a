import { randomBytes } from "node:crypto";
import pg from "pg";
import { expect, inject } from "vitest";
import { openDatabase, type Db } from "~/db/db.server";

export type DatabaseEngine = "sqlite" | "postgres";

/**
 * The engine this test file runs on: the data-layer tests run twice, on SQLite (the "unit"
 * project) and on PostgreSQL (the "postgres" project, vitest.config.ts).
 */
export function databaseEngine(): DatabaseEngine {
  requireDataLayerName();
  return inject("databaseEngine") ?? "sqlite";
}

/**
 * The `postgres` project finds the data-layer tests by their name alone: a test that opens its
 * database here under another name would silently run on SQLite only.
 */
function requireDataLayerName() {
  const file = expect.getState().testPath ?? "";
  if (!/\.db\.test\.tsx?$/.test(file)) {
    throw new Error(
      `${file || "This test"} opens its database through tests/support/test-database.ts: name it *.db.test.ts so that it runs on PostgreSQL too (vitest.config.ts)`,
    );
  }
}

/**
 * A fresh, migrated, empty database on this run's engine (or the one asked for): SQLite in
 * memory, or a new PostgreSQL database, dropped at the end of the run by the global setup.
 */
export async function openDatabaseUnderTest(
  engine: DatabaseEngine = databaseEngine(),
  options: { poolSize?: number; statementTimeoutMs?: number } = {},
): Promise<Db> {
  requireDataLayerName();
  if (engine === "sqlite") return openDatabase({ dataDir: null });
  return openDatabase({ dataDir: null, databaseUrl: await createPostgresDatabase(), ...options });
}

/** A new empty database on the test server; its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const { serverUrl, prefix } = inject("postgres") ?? {};
  if (!serverUrl || !prefix) {
    throw new Error("No PostgreSQL for this test: run it in vitest's 'postgres' project");
  }
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
