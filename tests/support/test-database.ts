import { randomBytes } from "node:crypto";
import pg from "pg";
import { expect, inject } from "vitest";
import { openDatabase, type Db } from "~/db/db.server";
import { databaseOn } from "./postgres-global-setup";

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
  const databaseUrl = await createPostgresDatabase({ migrated: true });
  return openDatabase({ dataDir: null, databaseUrl, ...options });
}

/**
 * A new database on the test server, empty or (`migrated`) a copy of this run's migrated
 * template (postgres-global-setup.ts); its URL.
 */
export async function createPostgresDatabase({ migrated = false } = {}): Promise<string> {
  const { serverUrl, prefix, template } = inject("postgres") ?? {};
  if (!serverUrl || !prefix || !template) {
    throw new Error("No PostgreSQL for this test: run it in vitest's 'postgres' project");
  }
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"${migrated ? ` template "${template}"` : ""}`);
  } finally {
    await admin.end();
  }
  return databaseOn(serverUrl, name);
}
