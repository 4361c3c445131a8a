// `npm run migrate` as a deploy runs it before starting the server: the real script in a child
// process (its sources through tsx; tests/e2e/production-install.spec.ts runs its build).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { DATABASE_FILE_NAME } from "~/db/db.server";
import { migrations } from "~/db/migrations";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-migrate-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function migrate(env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", DATA_DIR: dataDir, ...env },
    encoding: "utf8",
  });
  const lines = run.stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; name?: string });
  return { code: run.status, lines, stderr: run.stderr };
}

describe("npm run migrate", { timeout: 60_000 }, () => {
  it("creates the server's schema without starting the server, and changes nothing the second time", () => {
    const first = migrate();
    expect(first.code).toBe(0);
    const applied = first.lines.filter((line) => line.msg === "migration applied");
    expect(applied.map((line) => line.name)).toEqual(Object.keys(migrations));
    expect(first.lines.at(-1)?.msg).toBe("database migrated");

    const database = new SQLite(path.join(dataDir, DATABASE_FILE_NAME), { readonly: true });
    const tables = database
      .prepare("select name from sqlite_master where type = 'table'")
      .all()
      .map((row) => (row as { name: string }).name);
    database.close();
    // The rate limit table the server's processes share is made here too, not by a migration.
    expect(tables).toEqual(expect.arrayContaining(["orders", "mail_queue", "rate_limits"]));

    const second = migrate();
    expect(second.code).toBe(0);
    expect(second.lines.map((line) => line.msg)).toEqual(["database migrated"]);
  });

  it("refuses a bad configuration in one line, as the server does", () => {
    const run = migrate({ DB_BUSY_TIMEOUT_MS: "soon" });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("DB_BUSY_TIMEOUT_MS");
  });

  it("needs only the database: a production environment without an identity pool, secrets or providers migrates", () => {
    // The server itself refuses this environment (no pool, no session secret, test doubles).
    const productionDir = mkdtempSync(path.join(os.tmpdir(), "storefront-migrate-prod-"));
    try {
      const run = migrate({ NODE_ENV: "production", DATA_DIR: productionDir });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.lines.at(-1)?.msg).toBe("database migrated");
    } finally {
      rmSync(productionDir, { recursive: true, force: true });
    }
  });
});
