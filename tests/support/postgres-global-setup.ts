import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/db/db.server";

/**
 * Global setup of the "postgres" test project: a PostgreSQL server for the data-layer tests,
 * started by scripts/ensure-postgres.sh (or the one TEST_DATABASE_URL names). Every database a
 * test opens is created under this run's prefix and dropped at the end (decision 0074). The
 * migrations run once, into this run's template database: a test's migrated database is a copy
 * of it (`create database … template`), not 21 migrations again.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL || ensurePostgres();
  const prefix = `storefront_test_${randomBytes(4).toString("hex")}`;
  try {
    await withAdmin(serverUrl, (admin) => admin.query("select 1"));
  } catch (error) {
    throw oneLine(`PostgreSQL could not start: ${describe(error)} (${redacted(serverUrl)})`);
  }
  const template = `${prefix}_template`;
  await withAdmin(serverUrl, (admin) => admin.query(`create database "${template}"`));
  const migrated = await openDatabase({
    dataDir: null,
    databaseUrl: databaseOn(serverUrl, template),
  });
  // A template must have no session open while it is copied.
  await migrated.destroy();
  project.provide("postgres", { serverUrl, prefix, template });
  return async () => {
    const names = await withAdmin(serverUrl, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`${prefix}\\_%`],
      );
      return rows.map((row) => row.datname);
    });
    // Every drop waits for a checkpoint (PostgreSQL 15); drops in flight together share one.
    const failures: string[] = [];
    const dropNext = () =>
      withAdmin(serverUrl, async (admin) => {
        for (let name = names.pop(); name !== undefined; name = names.pop()) {
          await admin
            .query(`drop database if exists "${name}" with (force)`)
            .catch((error: unknown) => failures.push(`${name}: ${describe(error)}`));
        }
      });
    await Promise.all(Array.from({ length: CONCURRENT_DROPS }, dropNext));
    if (failures.length > 0) {
      console.warn(`${failures.length} test databases left on the server; first: ${failures[0]}`);
    }
  };
}

const CONCURRENT_DROPS = 8;

/** The URL of `name` on the server `serverUrl` names. */
export function databaseOn(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function ensurePostgres(): string {
  const script = fileURLToPath(new URL("../../scripts/ensure-postgres.sh", import.meta.url));
  try {
    const output = execFileSync("bash", [script], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return output.trim().split("\n").at(-1) ?? "";
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
    const line = stderr
      .split("\n")
      .reverse()
      .find((text) => text.startsWith("PostgreSQL could not"));
    throw oneLine(line ?? `PostgreSQL could not start: ${describe(error)}`);
  }
}

async function withAdmin<T>(url: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** An error vitest prints as its message alone: the one line says what to fix. */
function oneLine(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function redacted(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * The test server, this run's prefix of database names, and its migrated template database.
     */
    postgres: { serverUrl: string; prefix: string; template: string };
    /** Which database the data-layer tests open: the "postgres" project runs them again on it. */
    databaseEngine: "sqlite" | "postgres";
  }
}
