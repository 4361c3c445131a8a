// npm run soak: load with correctness. Builds (unless --no-build) and starts the production
// server with its embedded defaults, prepares customer accounts in its identity emulator, then
// lets SOAK_CLIENTS simulated customers (default 200) browse, change carts, check out and pay,
// sign in, top up, request portability and register lines to their holders for SOAK_SECONDS
// (default 60), each of them now and then submitting a form twice. Afterwards it stops the server, reads the database and reconciles
// it with what every customer was told (scripts/soak/reconcile.ts). With DATABASE_URL the
// server runs on PostgreSQL, in a new database created on that server for the run. It prints a summary, writes
// it to docs/reliability.md and exits non-zero on any 5xx, any request left without an answer,
// any failed journey or any reconciliation finding.
import { execFile, execSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
// The reconciliation stays TypeScript (scripts/soak/reconcile.ts, test tooling kept out of app/):
// the type checker holds it to app/db/schema.ts, vitest tests it (reconcile.test.ts beside it),
// and this script loads it through tsx's API (a devDependency, like the soak itself), so
// `npm run soak` remains a plain `node scripts/soak.mjs`.
import { tsImport } from "tsx/esm/api";
import { processCpuSeconds } from "./process-cpu.mjs";
import { npmScriptArgs, serverArgs } from "./server-command.mjs";
import { createSoakDatabase, readStoredRows } from "./soak/database.mjs";
import { inspectIdentityStore, prepareCustomers } from "./soak/identity.mjs";
import { SimulatedCustomer } from "./soak/journeys.mjs";
import { Recorder } from "./soak/recorder.mjs";
import { createSmsReader } from "./soak/sms.mjs";
import { buildReport, writeLastRun } from "./soak/report.mjs";
import { generateSessionSecret, killEveryServer, startServer, stopServer } from "./soak/server.mjs";

// dist/server.js, the build and docs/ are named from the project root, whatever the caller's cwd.
process.chdir(fileURLToPath(new URL("..", import.meta.url)));

const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 200);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
/** Journeys under way at the deadline are finished; past this, they are cut off. */
const DRAIN_GRACE_MS = 20_000;
const REPORT_FILE = "docs/reliability.md";
const MAX_LOG_LINES_REPORTED = 10;
/** How often the operator records usage on a line customers topped up (`npm run ops -- consumo`). */
const USAGE_INTERVAL_MS = 1_500;
/** After the customers, how long the line jobs (top-ups, activations) may take to finish. */
const LINE_JOBS_DRAIN_MS = 60_000;
/**
 * The automatic top-ups' scheduler runs every 2 s here (scripts/soak/server.mjs): a round or two
 * after the customers stop charges what is due, whose top-ups the line-jobs worker then applies.
 */
const AUTO_TOPUP_SETTLE_MS = 5_000;

// Portability numbers carry the customer's index in three digits (scripts/soak/customer-data.mjs).
if (!Number.isInteger(CLIENTS) || CLIENTS < 1 || CLIENTS > 999) {
  throw new Error("SOAK_CLIENTS must be a whole number from 1 to 999");
}
if (!Number.isFinite(SECONDS) || SECONDS <= 0) {
  throw new Error("SOAK_SECONDS must be a positive number of seconds");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message) => console.log(`[soak] ${message}`);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-soak-"));
let keepDataDir = false;
/** On PostgreSQL: this run's own database (dropped afterwards unless the run failed). */
let database = null;
const stopCustomers = new AbortController();

function cleanUp() {
  killEveryServer();
  if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
}
// Whatever happens — an error, Ctrl-C, a SIGTERM — no server is left running on the machine.
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    log(`${signal}: stopping the customers and the server`);
    stopCustomers.abort();
    cleanUp();
    process.exit(130);
  });
}

/** The server's process and, with WEB_CONCURRENCY > 1, its workers (the primary's children). */
function serverPids(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** Peak resident memory of the server's processes (VmHWM, summed), in MB; null when unknown. */
function peakRssMb(pid) {
  try {
    let kilobytes = 0;
    for (const each of serverPids(pid)) {
      const status = readFileSync(`/proc/${each}/status`, "utf8");
      kilobytes += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    }
    return kilobytes / 1024;
  } catch {
    return null;
  }
}

/**
 * CPU seconds each of the server's processes has used (user + system; the primary also counts
 * what workers that exited used), by pid. The primary serves no page when clustered: it runs the
 * identity emulator (a test double) and the schedulers, so its share is reported apart from the
 * workers' (issue 33).
 */
function serverCpuSeconds(pid) {
  try {
    const byPid = new Map();
    for (const each of serverPids(pid)) {
      const { own, exitedChildren } = processCpuSeconds(each);
      byPid.set(each, each === pid ? own + exitedChildren : own);
    }
    return byPid;
  } catch {
    return null;
  }
}

/** The CPU seconds used between two readings: the primary's and the workers' (all of them). */
function cpuBetween(pid, before, after) {
  if (before === null || after === null) return null;
  const used = (each) => (after.get(each) ?? 0) - (before.get(each) ?? 0);
  const primary = used(pid);
  let workers = 0;
  for (const each of after.keys()) if (each !== pid) workers += used(each);
  return { total: primary + workers, primary, workers };
}

/**
 * The operator records usage on lines while customers browse, as the network would: every
 * USAGE_INTERVAL_MS, `npm run ops -- consumo` (its own process, on the server's database) on a
 * line a customer topped up or added, with a random amount. The ledger keeps what was asked.
 */
async function recordUsageWhileRunning(server, recorder, deadline) {
  const { ledger } = recorder;
  const random = (limit) => Math.floor(Math.random() * limit);
  while (Date.now() < deadline && !stopCustomers.signal.aborted) {
    await sleep(USAGE_INTERVAL_MS);
    const numbers = [
      ...new Set([
        ...ledger.topups.filter((told) => told.shownPaid).map((told) => told.phoneNumber),
        ...ledger.line.added.filter((told) => told.outcome === "told").map((told) => told.number),
      ]),
    ];
    if (numbers.length === 0) continue;
    const asked = ledger.usage({
      number: numbers[random(numbers.length)],
      dataMb: 1 + random(400),
      minutes: random(30),
      sms: random(5),
    });
    const args = [...npmScriptArgs("ops"), "consumo", asked.number, "--datos", `${asked.dataMb}MB`];
    if (asked.minutes > 0) args.push("--minutos", String(asked.minutes));
    if (asked.sms > 0) args.push("--sms", String(asked.sms));
    asked.exitCode = await new Promise((resolve) => {
      execFile(process.execPath, args, { env: server.environment }, (error, _stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        if (code !== 0) {
          recorder.usageFailures.push(`consumo ${asked.number}: exit ${code} — ${stderr.trim()}`);
        }
        resolve(code);
      });
    });
  }
}

/**
 * Top-ups paid and eSIMs installed at the end of the run are applied by the line-jobs worker a
 * moment later: the reconciliation reads the BSS once /readyz counts no job pending.
 */
async function waitForLineJobs(server) {
  const deadline = Date.now() + LINE_JOBS_DRAIN_MS;
  let last = null;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${server.origin}/readyz`, {
        headers: { Authorization: `Bearer ${server.environment.METRICS_TOKEN}` },
      });
      last = (await response.json()).lineJobs;
      if (last && last.pending === 0) return last;
    } catch {
      // not answering this moment: asked again
    }
    await sleep(250);
  }
  log(`line jobs still pending after ${LINE_JOBS_DRAIN_MS / 1000} s: ${JSON.stringify(last)}`);
  return last;
}

async function runCustomers(server, accounts, recorder) {
  const codeSentTo = createSmsReader(dataDir);
  const customers = accounts.map(
    (account, index) =>
      new SimulatedCustomer({
        index,
        account,
        origin: server.origin,
        recorder,
        stopSignal: stopCustomers.signal,
        codeSentTo,
      }),
  );
  const started = performance.now();
  const deadline = Date.now() + SECONDS * 1000;
  const progress = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    log(`${seconds.toFixed(0)} s: ${recorder.requests} requests, ${recorder.serverErrorCount} 5xx`);
  }, 10_000);
  // A server that dies under load ends the run (the report says how it exited) rather than
  // letting every customer fail journey after journey against a closed port.
  let running = true;
  server.exited.then(() => {
    if (!running) return;
    log("the server exited during the run");
    stopCustomers.abort();
  });
  const finished = Promise.all([
    ...customers.map((customer) => customer.run(deadline)),
    recordUsageWhileRunning(server, recorder, deadline),
  ]);
  const outcome = await Promise.race([
    finished.then(() => "finished"),
    sleep(SECONDS * 1000 + DRAIN_GRACE_MS).then(() => "grace over"),
  ]);
  if (outcome === "grace over") {
    log("journeys still under way after the grace period are cut off");
    stopCustomers.abort();
    await finished;
  }
  running = false;
  clearInterval(progress);
  return (performance.now() - started) / 1000;
}

/** The 5xx answers get the server's own log line (same request id), for the report. */
function attachLogLines(recorder, server) {
  for (const error of recorder.serverErrors) {
    error.logLine =
      server.logLines.find((line) => line.requestId && line.requestId === error.requestId) ?? null;
  }
}

async function main() {
  if (!process.argv.includes("--no-build")) {
    execSync("npm run build", { stdio: "inherit" });
  }
  const { reconcile } = await tsImport("./soak/reconcile.ts", import.meta.url);
  const sessionSecret = generateSessionSecret();

  log(`preparing ${CLIENTS} customer accounts in the embedded identity emulator`);
  const extraEnv = {};
  if (process.env.DATABASE_URL) {
    database = await createSoakDatabase(process.env.DATABASE_URL);
    extraEnv.DATABASE_URL = database.url;
    log(`on PostgreSQL: database ${database.name}`);
  }
  const { accounts, userPoolId } = await prepareCustomers({
    dataDir,
    sessionSecret,
    extraEnv,
    count: CLIENTS,
    log,
  });

  const server = await startServer({ dataDir, sessionSecret, logLevel: "warn", extraEnv });
  log(`server on ${server.origin}; ${CLIENTS} customers for ${SECONDS} s`);
  const loadAverageBefore = os.loadavg();
  const recorder = new Recorder();
  // Both sides share the machine's cores: how much each used says what the figures measure.
  const serverCpuBefore = serverCpuSeconds(server.child.pid);
  const customersCpuBefore = process.cpuUsage();
  const elapsedSeconds = await runCustomers(server, accounts, recorder);
  const serverCpuAfter = serverCpuSeconds(server.child.pid);
  const customersCpu = process.cpuUsage(customersCpuBefore);
  await sleep(AUTO_TOPUP_SETTLE_MS);
  const lineJobs = await waitForLineJobs(server);
  const peakRss = peakRssMb(server.child.pid);

  log("stopping the server (SIGTERM)");
  const stopped = await stopServer(server);
  attachLogLines(recorder, server);
  const problemLines = [
    ...server.logLines.slice(0, MAX_LOG_LINES_REPORTED).map((line) => JSON.stringify(line)),
    ...server.rawOutput.slice(0, MAX_LOG_LINES_REPORTED),
  ];

  const identityStore = inspectIdentityStore(dataDir, userPoolId, accounts);
  log("reconciling the customers' ledger with the database");
  const reconciliation = reconcile(
    recorder.ledger,
    await readStoredRows({ dataDir, databaseUrl: database?.url }),
  );
  const report = buildReport({
    settings: {
      clients: CLIENTS,
      seconds: SECONDS,
      workers: Number(process.env.WEB_CONCURRENCY ?? 1),
      engine: database ? "PostgreSQL" : "SQLite",
    },
    loadAverageBefore,
    recorder,
    elapsedSeconds,
    reconciliation,
    server: {
      args: serverArgs(),
      peakRssMb: peakRss,
      cpu: cpuBetween(server.child.pid, serverCpuBefore, serverCpuAfter),
      problemLines,
      exit: stopped,
    },
    customersCpuSeconds: (customersCpu.user + customersCpu.system) / 1e6,
    lineJobs,
    identityStore,
  });
  console.log(`\n${report.text}\n`);
  writeLastRun(REPORT_FILE, report.text);
  log(`summary written to ${REPORT_FILE}`);
  if (!report.passed) {
    keepDataDir = true;
    log(`FAIL — the server's data is kept for inspection in ${dataDir}`);
    if (database) log(`and in the PostgreSQL database ${database.name}`);
  } else if (database) {
    await database.drop();
  }
  return report.passed;
}

let exitCode = 1;
try {
  exitCode = (await main()) ? 0 : 1;
} catch (error) {
  console.error(error);
} finally {
  cleanUp();
}
process.exit(exitCode);
