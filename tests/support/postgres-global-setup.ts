import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";

/**
 * Global setup of the "postgres" test project: a PostgreSQL server for the data-layer tests,
 * started by scripts/ensure-postgres.sh (or the one TEST_DATABASE_URL names). Every database a
 * test opens is created under this run's prefix and dropped at the end (decision 0074).
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL || ensurePostgres();
  const prefix = `storefront_test_${randomBytes(4).toString("hex")}`;
  try {
    await withAdmin(serverUrl, (admin) => admin.query("select 1"));
  } catch (error) {
    throw oneLine(`PostgreSQL could not start: ${describe(error)} (${redacted(serverUrl)})`);
  }
  project.provide("postgres", { serverUrl, prefix });
  return async () => {
    await withAdmin(serverUrl, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like $1",
        [`${prefix}\\_%`],
      );
      const failures: string[] = [];
      for (const { datname } of rows) {
        await admin
          .query(`drop database if exists "${datname}" with (force)`)
          .catch((error: unknown) => failures.push(`${datname}: ${describe(error)}`));
      }
      if (failures.length > 0) {
        console.warn(`${failures.length} test databases left on the server; first: ${failures[0]}`);
      }
    });
  };
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
    /** The test server and this run's prefix of database names. */
    postgres: { serverUrl: string; prefix: string };
    /** Which database the data-layer tests open: the "postgres" project runs them again on it. */
    databaseEngine: "sqlite" | "postgres";
  }
}
