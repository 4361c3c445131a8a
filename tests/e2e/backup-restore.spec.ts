import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import SQLite from "better-sqlite3";
import pg from "pg";
import { npmScriptArgs } from "../../scripts/server-command.mjs";
import { prepareCustomers } from "../../scripts/soak/identity.mjs";
import { SimulatedCustomer } from "../../scripts/soak/journeys.mjs";
import { testIdText } from "../../scripts/soak/pages.mjs";
import { Recorder } from "../../scripts/soak/recorder.mjs";
import {
  generateSessionSecret,
  killEveryServer,
  startServer,
  stopServer,
} from "../../scripts/soak/server.mjs";
import { createSmsReader } from "../../scripts/soak/sms.mjs";
import { createThrowawayDatabase } from "../../scripts/throwaway-database.mjs";

// Issue 32: a backup that restores (decision 0113). The production build runs under the soak's own
// customers (scripts/soak/journeys.mjs: browsing, carts, checkouts paid by card, cash and SPEI,
// top-ups, portability, lines) while `npm run ops -- respaldo` copies its database; the copy is
// restored with `npm run ops -- restaurar` into a fresh DATA_DIR (SQLite) or a fresh database
// (PostgreSQL), a server starts on it, and every order, payment, top-up and e-mail row the backup
// file holds — read from the file itself, not from the command's report — is found there: the
// paid ones still paid, each paid top-up's receipt served by the restored server, every order
// listed by `npm run ops`. No browser: one run, in the js-enabled project.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "no browser here: one run is enough");
// The two engines one after the other in one worker: two loads at once would share two cores.
test.describe.configure({ mode: "default" });

const CUSTOMERS = 12;
/** Customers start journeys for this long at most… */
const LOAD_SECONDS = 30;
/** …and for this long once the backup is written: it was taken under load, and more came after. */
const LOAD_AFTER_BACKUP_MS = 3_000;
/**
 * The backup is taken, journeys under way, once the database holds this many paid orders and
 * paid top-ups (a few seconds into the load on an idle machine), or this far into the load.
 */
const PAID_BEFORE_BACKUP = { orders: 3, topups: 2 };
const BACKUP_AT_THE_LATEST_MS = 20_000;
/** Journeys under way at the deadline finish; past this they are cut off. */
const DRAIN_MS = 15_000;

type Engine = "sqlite" | "postgres";
type Env = Record<string, string | undefined>;

/** The rows a restore must bring back: id → status (the mail queue's by id alone). */
interface HeldRows {
  orders: Map<string, string>;
  payments: Map<string, string>;
  topups: Map<string, string>;
  mail: Map<string, string>;
}

const TABLES = {
  orders: "orders",
  payments: "payments",
  topups: "topups",
  mail: "mail_queue",
} as const satisfies Record<keyof HeldRows, string>;

/** Statuses a restored server never changes back: the ones a backup must keep as they were. */
const SETTLED = new Set(["paid", "approved"]);

/** The PostgreSQL server of the test run: the one named, or the private one (decision 0074). */
function postgresServerUrl(): string {
  const named = process.env.E2E_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (named) return named;
  const script = fileURLToPath(new URL("../../scripts/ensure-postgres.sh", import.meta.url));
  return execFileSync("bash", [script], { encoding: "utf8" }).trim().split("\n").at(-1) ?? "";
}

/** `npm run ops -- …` as the operator runs it (the build, dist/ops.js), with only `env`. */
function ops(args: string[], env: Env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...npmScriptArgs("ops"), ...args],
      {
        env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv,
        encoding: "utf8",
      },
      (error, stdout: string, stderr: string) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The rows of a SQLite file (the backup itself, or a restored DATA_DIR's database). */
function sqliteRows(file: string): HeldRows {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const read = (table: string, status: boolean) =>
      new Map(
        (
          database
            .prepare(`select id, ${status ? "status" : "'queued' as status"} from ${table}`)
            .all() as { id: string; status: string }[]
        ).map((row) => [row.id, row.status]),
      );
    return {
      orders: read(TABLES.orders, true),
      payments: read(TABLES.payments, true),
      topups: read(TABLES.topups, true),
      mail: read(TABLES.mail, false),
    };
  } finally {
    database.close();
  }
}

/**
 * The rows a pg_dump file holds, read from the file with pg_restore's plain-SQL output (COPY
 * blocks), without restoring it anywhere.
 */
function dumpRows(file: string): HeldRows {
  const read = (table: string, status: boolean) => {
    const script = execFileSync(
      "pg_restore",
      ["--data-only", `--table=${table}`, "--file=-", file],
      { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
    );
    const lines = script.split("\n");
    const start = lines.findIndex((line) => line.startsWith(`COPY public.${table} (`));
    expect(start, `${table} in the dump`).toBeGreaterThan(-1);
    const columns = /\((.*)\) FROM stdin;$/
      .exec(lines[start])![1]
      .split(", ")
      .map((column) => column.replaceAll('"', ""));
    const rows = new Map<string, string>();
    for (const line of lines.slice(start + 1)) {
      if (line === "\\.") break;
      const values = line.split("\t");
      rows.set(
        values[columns.indexOf("id")],
        status ? values[columns.indexOf("status")] : "queued",
      );
    }
    return rows;
  };
  return {
    orders: read(TABLES.orders, true),
    payments: read(TABLES.payments, true),
    topups: read(TABLES.topups, true),
    mail: read(TABLES.mail, false),
  };
}

async function postgresRows(databaseUrl: string): Promise<HeldRows> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const read = async (table: string, status: boolean) =>
      new Map(
        (
          await client.query<{ id: string; status: string }>(
            `select id, ${status ? "status" : "'queued' as status"} from ${table}`,
          )
        ).rows.map((row) => [row.id, row.status]),
      );
    return {
      orders: await read(TABLES.orders, true),
      payments: await read(TABLES.payments, true),
      topups: await read(TABLES.topups, true),
      mail: await read(TABLES.mail, false),
    };
  } finally {
    await client.end();
  }
}

/** Paid orders and top-ups the live database holds so far. */
async function paidSoFar(dataDir: string, databaseUrl: string | undefined) {
  const query = `select (select count(*) from orders where status = 'paid') as orders,
                        (select count(*) from topups where status = 'paid') as topups`;
  if (!databaseUrl) {
    const database = new SQLite(path.join(dataDir, "storefront.sqlite"), { readonly: true });
    try {
      return database.prepare(query).get() as { orders: number; topups: number };
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(query);
    return { orders: Number(rows[0].orders), topups: Number(rows[0].topups) };
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));

for (const engine of ["sqlite", "postgres"] as const satisfies readonly Engine[]) {
  test(`a backup taken under the soak's load restores into a fresh ${engine === "sqlite" ? "DATA_DIR (SQLite)" : "database (PostgreSQL)"}, and the server started on it finds every paid order, payment, top-up and e-mail of the backup`, async () => {
    test.setTimeout(5 * 60_000);
    const timings: Record<string, number> = {};
    const started = performance.now();
    const scratch = mkdtempSync(path.join(tmpdir(), `storefront-backup-${engine}-`));
    const dataDir = path.join(scratch, "data");
    const restoredDir = path.join(scratch, "restored");
    const backupFile = path.join(scratch, engine === "sqlite" ? "tienda.sqlite" : "tienda.dump");
    const sessionSecret = generateSessionSecret();
    const serverUrl = engine === "postgres" ? postgresServerUrl() : null;
    const databases = serverUrl
      ? {
          live: await createThrowawayDatabase(serverUrl, "storefront_backup"),
          restored: await createThrowawayDatabase(serverUrl, "storefront_restored"),
        }
      : null;
    const liveEnv: Env = databases ? { DATABASE_URL: databases.live.url } : {};
    const restoredEnv: Env = databases ? { DATABASE_URL: databases.restored.url } : {};
    try {
      const { accounts } = await prepareCustomers({
        dataDir,
        sessionSecret,
        extraEnv: liveEnv,
        count: CUSTOMERS,
      });
      timings.prepareSeconds = seconds(started);

      const server = await startServer({
        dataDir,
        sessionSecret,
        logLevel: "warn",
        extraEnv: liveEnv,
      });
      const recorder = new Recorder();
      const stopCustomers = new AbortController();
      const codeSentTo = createSmsReader(dataDir);
      const loadStarted = performance.now();
      let deadline = Date.now() + LOAD_SECONDS * 1000;
      const load = Promise.all(
        accounts.map((account: unknown, index: number) =>
          new SimulatedCustomer({
            index,
            account,
            origin: server.origin,
            recorder,
            stopSignal: stopCustomers.signal,
            codeSentTo,
          }).run(() => deadline),
        ),
      );
      const cutOff = setTimeout(() => stopCustomers.abort(), LOAD_SECONDS * 1000 + DRAIN_MS);

      const backupDue = Date.now() + BACKUP_AT_THE_LATEST_MS;
      for (;;) {
        const paid = await paidSoFar(dataDir, liveEnv.DATABASE_URL);
        if (paid.orders >= PAID_BEFORE_BACKUP.orders && paid.topups >= PAID_BEFORE_BACKUP.topups)
          break;
        if (Date.now() > backupDue) break;
        await sleep(500);
      }
      timings.backupAfterSeconds = seconds(loadStarted);
      const requestsBefore = recorder.requests;
      const errorsBefore = recorder.serverErrorCount;
      const backupStarted = performance.now();
      const backup = await ops(["respaldo", backupFile], { DATA_DIR: dataDir, ...liveEnv });
      timings.backupSeconds = seconds(backupStarted);
      deadline = Math.min(deadline, Date.now() + LOAD_AFTER_BACKUP_MS);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`Respaldo escrito en ${backupFile} (`);
      expect(backup.stdout).toContain(
        "No van en este archivo (cópialos aparte de DATA_DIR): cognito-local",
      );
      const requestsAtBackup = recorder.requests - requestsBefore;
      const errorsAtBackup = recorder.serverErrorCount - errorsBefore;

      await load;
      clearTimeout(cutOff);
      timings.loadSeconds = seconds(loadStarted);
      expect(await stopServer(server)).toMatchObject({ code: 0 });
      // An online backup: the customers were served throughout, never with a 500. A database
      // slower than its statement timeout (an overloaded machine) is answered with the store's
      // Spanish "try again" 503 that keeps the form (decisions 0052, 0053): counted, reported.
      const notTryAgain = recorder.serverErrors.filter(
        (error: { status: number; said: string | null }) =>
          error.status !== 503 || !/vuelve a enviarlo/.test(error.said ?? ""),
      );
      expect(notTryAgain, JSON.stringify(notTryAgain.slice(0, 3))).toEqual([]);
      // Every one of them seen (the recorder keeps the first 20).
      expect(recorder.serverErrorCount).toBe(recorder.serverErrors.length);
      const requestsAfterBackup = recorder.requests - requestsBefore - requestsAtBackup;
      expect(requestsAfterBackup).toBeGreaterThan(0);

      // What the backup holds, read from the file itself.
      const held = engine === "sqlite" ? sqliteRows(backupFile) : dumpRows(backupFile);
      const paidOrders = [...held.orders].filter(([, status]) => status === "paid");
      const paidTopups = [...held.topups].filter(([, status]) => status === "paid");
      expect(paidOrders.length, "paid orders in the backup").toBeGreaterThan(0);
      expect(paidTopups.length, "paid top-ups in the backup").toBeGreaterThan(0);
      expect(held.payments.size).toBeGreaterThan(0);
      expect(held.mail.size).toBeGreaterThan(0);

      // Never over a database that holds data: one Spanish line, exit code 1, nothing changed.
      const refused = await ops(["restaurar", backupFile], { DATA_DIR: dataDir, ...liveEnv });
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(refused.stderr).toMatch(/restaurar no la sobrescribe/);

      const restoreStarted = performance.now();
      const restored = await ops(["restaurar", backupFile], {
        DATA_DIR: restoredDir,
        ...restoredEnv,
      });
      timings.restoreSeconds = seconds(restoreStarted);
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`${held.orders.size} pedidos`);
      // What README says to copy beside the database: the embedded identity's accounts.
      cpSync(path.join(dataDir, "cognito-local"), path.join(restoredDir, "cognito-local"), {
        recursive: true,
      });

      const restartStarted = performance.now();
      const again = await startServer({
        dataDir: restoredDir,
        sessionSecret,
        logLevel: "warn",
        extraEnv: restoredEnv,
      });
      try {
        timings.restoredServerStartSeconds = seconds(restartStarted);
        const ready = await fetch(`${again.origin}/readyz`);
        expect(ready.status).toBe(200);
        // Each paid top-up's receipt, as the restored server shows it.
        for (const [id] of paidTopups) {
          const receipt = await fetch(`${again.origin}/recarga/${id}`);
          expect(receipt.status, `/recarga/${id}`).toBe(200);
          expect(testIdText(await receipt.text(), "topup-status")).toBe("Pagada");
        }
        // Every order, as the operator lists them from the restored database.
        const listed = await ops(["pedidos", "--csv", "-"], {
          ...again.environment,
          DATA_DIR: restoredDir,
        });
        expect(listed.code, listed.stderr).toBe(0);
        const listedOrders = listed.stdout.trim().split("\n").length - 1;
        expect(listedOrders).toBe(held.orders.size);
      } finally {
        expect(await stopServer(again)).toMatchObject({ code: 0 });
      }

      // Every row of the backup is in the restored database; the paid and approved ones still so.
      const found = databases
        ? await postgresRows(databases.restored.url)
        : sqliteRows(path.join(restoredDir, "storefront.sqlite"));
      for (const table of Object.keys(TABLES) as (keyof HeldRows)[]) {
        const missing = [...held[table].keys()].filter((id) => !found[table].has(id));
        expect(missing, `${TABLES[table]} rows of the backup missing after the restore`).toEqual(
          [],
        );
        const changed = [...held[table]].filter(
          ([id, status]) => SETTLED.has(status) && found[table].get(id) !== status,
        );
        expect(changed, `${TABLES[table]} rows no longer paid`).toEqual([]);
      }

      timings.totalSeconds = seconds(started);
      const summary = {
        engine,
        node: process.version,
        customers: CUSTOMERS,
        requests: recorder.requests,
        requestsWhileBackingUp: requestsAtBackup,
        tryAgain503: recorder.serverErrorCount,
        tryAgain503WhileBackingUp: errorsAtBackup,
        tryAgainLogLines: recorder.serverErrors.map(
          (error: { requestId: string }) =>
            server.logLines.find(
              (line: { requestId?: string }) => line.requestId === error.requestId,
            ) ?? null,
        ),
        backup: Object.fromEntries(Object.entries(held).map(([table, rows]) => [table, rows.size])),
        paidOrders: paidOrders.length,
        paidTopups: paidTopups.length,
        ...timings,
      };
      test
        .info()
        .annotations.push({ type: "backup-restore", description: JSON.stringify(summary) });
      console.log(`[backup-restore] ${JSON.stringify(summary)}`);
    } finally {
      killEveryServer();
      await databases?.live.drop().catch(() => undefined);
      await databases?.restored.drop().catch(() => undefined);
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}
