// npm run bench: builds and starts the production server with embedded defaults, drives it with
// autocannon on loopback next to two references (a bare node:http server returning the home
// page's bytes, and a minimal React Router page served by the same server.ts), and writes the results
// to docs/performance.md. Ratios, not absolute figures, are what count on a shared machine.
import { execSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { lineOfAccount } from "./bench-line.mjs";
import { buildMinimalApp, MINIMAL_APP_DIR } from "./minimal-app.mjs";
import { processCpuSeconds } from "./process-cpu.mjs";
import { productionTestEnvironment, serverArgs } from "./server-command.mjs";
import { cartCookie, cookiesOf, firstPlanId } from "./visitor-cookies.mjs";

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 3;
/** BENCH_PORT_BASE moves every port, so that two runs on one machine keep apart. */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3200);
const PORTS = {
  storefront: PORT_BASE,
  minimal: PORT_BASE + 1,
  bare: PORT_BASE + 2,
  rendering: PORT_BASE + 3,
  workers: PORT_BASE + 4,
};
const skipBuild = process.argv.includes("--no-build");

const sh = (command) => execSync(command, { stdio: "inherit" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (!skipBuild) {
  sh("npm run build");
}
buildMinimalApp();

/** Every server started, stopped whatever way the bench ends (a failure must not leave one behind). */
const children = new Set();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

function startServer(port, extraEnv = {}, nodeArgs = serverArgs()) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
  const started = performance.now();
  const child = spawn(process.execPath, nodeArgs, {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      // The name every request of the bench uses: another would be redirected (decision 0103).
      ...productionTestEnvironment(`http://127.0.0.1:${port}`),
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      SESSION_SECRET: "benchmark-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.add(child);
  return { child, started, dataDir };
}

async function timeToFirst200(url, started) {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
}

/** Peak resident memory of a process (VmHWM), in MB. */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * `server`: the one process answering, whose CPU per request is reported (none when several do):
 * requests per second on a shared machine also measure the client beside the server (issue 33).
 */
async function run(name, options, server) {
  await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP_S });
  const cpuBefore = server ? processCpuSeconds(server.child.pid).own : null;
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_S });
  const cpuMsPerRequest =
    server && result.requests.total > 0
      ? ((processCpuSeconds(server.child.pid).own - cpuBefore) * 1000) / result.requests.total
      : null;
  const statusCounts = {
    "2xx": result["2xx"],
    "3xx": result["3xx"],
    "4xx": result["4xx"],
    "5xx": result["5xx"],
  };
  const row = {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    statusCounts,
    cpuMsPerRequest,
  };
  console.log(
    `${name.padEnd(28)} ${row.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  CPU ${cpuMsPerRequest?.toFixed(2) ?? "—"} ms/request  ${JSON.stringify(statusCounts)}`,
  );
  return row;
}

// The reference runs without npm start's heap cap: the default React Router entry keeps every render
// alive for its 5 s abort timer, and under a capped heap that costs it more than half its
// throughput (2026-12-05: 720–813 against 1,553–1,706 req/s, 10 connections). Comparing against
// its best keeps the ratio honest.
const minimal = startServer(
  PORTS.minimal,
  { SERVER_BUILD_PATH: path.join(MINIMAL_APP_DIR, "build/server/index.js") },
  ["dist/server.js"],
);
await timeToFirst200(`http://127.0.0.1:${PORTS.minimal}/`, minimal.started);
// Measured first (alone, as it is last) and last: the machine's speed can change within a run (in
// one run of 2026-12-05 the late rows and the references fell by half), and the ratios are to the
// mean of the two.
const minimalFirstRow = await run(
  "minimal React Router page, first",
  { url: `http://127.0.0.1:${PORTS.minimal}/` },
  minimal,
);

const storefront = startServer(PORTS.storefront);
const base = `http://127.0.0.1:${PORTS.storefront}`;
const startMs = await timeToFirst200(`${base}/`, storefront.started);
const homeBytes = Buffer.from(await (await fetch(`${base}/`)).arrayBuffer());
const planId = await firstPlanId(base);

const bare = http
  .createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(homeBytes);
  })
  .listen(PORTS.bare, "127.0.0.1");

/**
 * A signed-in customer's cookies: signed up through the pages against the embedded identity
 * service, the code read from the emulator's own store (production has no outbox page), and
 * confirmed, which signs the customer in.
 */
async function signedInCookie(origin, dataDir) {
  const email = `bench.${Date.now()}@example.com`;
  const password = "Conecta-2025x";
  const form = (fields) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  const signedUp = await fetch(
    `${origin}/auth/sign-up`,
    form({ username: email, password, confirm_password: password, country_code: "MX" }),
  );
  let cookie = cookiesOf(signedUp);
  const dbDir = path.join(dataDir, "cognito-local", "db");
  const { userPoolId } = JSON.parse(
    readFileSync(path.join(dataDir, "cognito-local", "embedded-pool.json"), "utf8"),
  );
  const pool = JSON.parse(readFileSync(path.join(dbDir, `${userPoolId}.json`), "utf8"));
  const user = Object.values(pool.Users ?? {}).find((candidate) =>
    candidate.Attributes?.some((attribute) => attribute.Value === email),
  );
  if (!user?.ConfirmationCode) throw new Error("bench: no confirmation code for the new account");
  const confirmed = await fetch(`${origin}/auth/confirm-sign-up`, {
    ...form({ intent: "confirm", username: email, confirmation_code: user.ConfirmationCode }),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
  });
  cookie = cookiesOf(confirmed, cookie);
  const account = await fetch(`${origin}/my-account`, { headers: { cookie }, redirect: "manual" });
  if (account.status !== 200) throw new Error(`bench: not signed in (${account.status})`);
  return cookiesOf(account, cookie);
}

const PAGES = [
  ["GET /", "/"],
  ["GET /plans", "/plans"],
  ["GET /auth/sign-in", "/auth/sign-in"],
  ["GET /help-center?q=recarga", "/help-center?q=recarga"],
];
const rows = [];
for (const [name, pathname] of PAGES) {
  rows.push(await run(name, { url: `${base}${pathname}` }, storefront));
}
rows.push(
  await run(
    "POST /cart (add)",
    {
      url: `${base}/cart`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `intent=add&id=${encodeURIComponent(planId)}`,
    },
    storefront,
  ),
);
// Visitors the page cache cannot serve: a cart in their cookie, or a session.
const withCart = await cartCookie(base, planId);
for (const [name, pathname] of [
  ["GET / with a cart", "/"],
  ["GET /plans with a cart", "/plans"],
  ["GET /cart with a cart", "/cart"],
]) {
  rows.push(
    await run(name, { url: `${base}${pathname}`, headers: { cookie: withCart } }, storefront),
  );
}
const signedIn = await signedInCookie(base, storefront.dataDir);
for (const [name, pathname] of [
  ["GET /my-account signed in", "/my-account"],
  ["GET /my-account/recarga signed in", "/my-account/recarga"],
]) {
  rows.push(
    await run(name, { url: `${base}${pathname}`, headers: { cookie: signedIn } }, storefront),
  );
}
// A line's page asks the BSS (the simulator, in the same database) for the line and its usage.
const LINE_PAGE_ROW = "GET /my-account/lineas/<número> signed in";
const line = await lineOfAccount({ origin: base, dataDir: storefront.dataDir, cookie: signedIn });
rows.push(
  await run(
    LINE_PAGE_ROW,
    { url: `${base}/my-account/lineas/${line.number}`, headers: { cookie: line.cookie } },
    storefront,
  ),
);
const storefrontPeakRss = peakRssMb(storefront.child.pid);
storefront.child.kill("SIGTERM");

// The same pages rendered for every request (page cache off): what a visitor with a cart or a
// session costs, and what the cache must not be allowed to hide.
const rendering = startServer(PORTS.rendering, { PAGE_CACHE_SECONDS: "0" });
await timeToFirst200(`http://127.0.0.1:${PORTS.rendering}/`, rendering.started);
for (const [name, pathname] of PAGES) {
  rows.push(
    await run(
      `${name} (rendered, no cache)`,
      { url: `http://127.0.0.1:${PORTS.rendering}${pathname}` },
      rendering,
    ),
  );
}
// What a cart holder's page costs when it has to be rendered (a cart nobody else holds).
const renderingBase = `http://127.0.0.1:${PORTS.rendering}`;
const renderedWithCart = await cartCookie(renderingBase, planId);
for (const [name, pathname] of [
  ["GET / with a cart (rendered, no cache)", "/"],
  ["GET /plans with a cart (rendered, no cache)", "/plans"],
  ["GET /cart with a cart (rendered, no cache)", "/cart"],
]) {
  rows.push(
    await run(
      name,
      { url: `${renderingBase}${pathname}`, headers: { cookie: renderedWithCart } },
      rendering,
    ),
  );
}
const renderedSignedIn = await signedInCookie(renderingBase, rendering.dataDir);
rows.push(
  await run(
    "GET /my-account signed in (rendered, no cache)",
    { url: `${renderingBase}/my-account`, headers: { cookie: renderedSignedIn } },
    rendering,
  ),
);
const renderedLine = await lineOfAccount({
  origin: renderingBase,
  dataDir: rendering.dataDir,
  cookie: renderedSignedIn,
});
rows.push(
  await run(
    `${LINE_PAGE_ROW} (rendered, no cache)`,
    {
      url: `${renderingBase}/my-account/lineas/${renderedLine.number}`,
      headers: { cookie: renderedLine.cookie },
    },
    rendering,
  ),
);
const renderingPeakRss = peakRssMb(rendering.child.pid);
rendering.child.kill("SIGTERM");

/**
 * Rendered-page throughput with 1 and then 2 worker processes (WEB_CONCURRENCY, decision 0075):
 * /plans for a visitor with a cart, page cache off, so that every request is rendered.
 */
async function workerScaling() {
  const scaling = [];
  for (const workers of [1, 2]) {
    const server = startServer(PORTS.workers, {
      WEB_CONCURRENCY: String(workers),
      PAGE_CACHE_SECONDS: "0",
    });
    const origin = `http://127.0.0.1:${PORTS.workers}`;
    await timeToFirst200(`${origin}/`, server.started);
    // The other workers start a moment after the first answers.
    await sleep(1_000);
    const cookie = await cartCookie(origin, planId);
    const row = await run(`GET /plans with a cart, ${workers} worker${workers > 1 ? "s" : ""}`, {
      url: `${origin}/plans`,
      headers: { cookie },
    });
    scaling.push({ workers, row });
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
    rmSync(server.dataDir, { recursive: true, force: true });
  }
  const ratio = scaling[1].row.requestsPerSecond / scaling[0].row.requestsPerSecond;
  console.log(`2 workers / 1 worker: ${ratio.toFixed(2)}×`);
  return [
    "| Workers (`WEB_CONCURRENCY`) | req/s | p50 (ms) | p99 (ms) | × one worker | non-2xx/3xx |",
    "|---|---:|---:|---:|---:|---:|",
    ...scaling.map(({ workers, row }) => {
      const bad = row.statusCounts["4xx"] + row.statusCounts["5xx"] + row.errors;
      const times = row.requestsPerSecond / scaling[0].row.requestsPerSecond;
      return `| ${workers} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50} | ${row.p99} | ${times.toFixed(2)} | ${bad} |`;
    }),
    "",
    `- Rendered pages (\`GET /plans\` with a cart cookie, \`PAGE_CACHE_SECONDS=0\`) with one and two worker processes, the same run: two workers serve ${ratio.toFixed(2)}× what one does (target ≥ 1.7× on ${os.cpus().length} cores, which autocannon shares).`,
  ].join("\n");
}
const workerSection = await workerScaling();

const minimalLastRow = await run(
  "minimal React Router page, last",
  { url: `http://127.0.0.1:${PORTS.minimal}/` },
  minimal,
);
const bareRow = await run("bare node:http (home bytes)", {
  url: `http://127.0.0.1:${PORTS.bare}/`,
});

minimal.child.kill("SIGTERM");
bare.close();
rmSync(storefront.dataDir, { recursive: true, force: true });
rmSync(minimal.dataDir, { recursive: true, force: true });
rmSync(rendering.dataDir, { recursive: true, force: true });

const percent = (value) => `${(value * 100).toFixed(0)} %`;
const mean = (a, b) => (a === null || b === null ? null : (a + b) / 2);
const minimalRow = {
  requestsPerSecond: mean(minimalFirstRow.requestsPerSecond, minimalLastRow.requestsPerSecond),
  cpuMsPerRequest: mean(minimalFirstRow.cpuMsPerRequest, minimalLastRow.cpuMsPerRequest),
};
const spread = (a, b) => Math.abs(a - b) / Math.min(a, b);
const referenceMoved = !(
  spread(minimalFirstRow.requestsPerSecond, minimalLastRow.requestsPerSecond) <= 0.15
);
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const date = new Date().toISOString().slice(0, 16).replace("T", " ");
const cpuCell = (row) => (row.cpuMsPerRequest === null ? "—" : row.cpuMsPerRequest.toFixed(2));
const cpuRatioCell = (row) =>
  row.cpuMsPerRequest && minimalRow.cpuMsPerRequest
    ? percent(minimalRow.cpuMsPerRequest / row.cpuMsPerRequest)
    : "—";
const table = [
  "| Target | req/s | p50 (ms) | p99 (ms) | p99 / p50 | ours / minimal React Router | ours / bare Node | server CPU ms / request | ours / minimal React Router, by CPU | non-2xx/3xx |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...[...rows, minimalFirstRow, minimalLastRow, bareRow].map((row) => {
    const isReference = row === minimalFirstRow || row === minimalLastRow || row === bareRow;
    const bad = row.statusCounts["4xx"] + row.statusCounts["5xx"] + row.errors;
    return `| ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50} | ${row.p99} | ${(row.p99 / Math.max(row.p50, 1)).toFixed(1)} | ${isReference ? "—" : percent(row.requestsPerSecond / minimalRow.requestsPerSecond)} | ${isReference ? "—" : percent(row.requestsPerSecond / bareRow.requestsPerSecond)} | ${cpuCell(row)} | ${isReference ? "—" : cpuRatioCell(row)} | ${bad} |`;
  }),
].join("\n");

const report = `<!-- bench:start -->
Measured ${date} UTC on ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version};
${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s per target, autocannon on loopback.

${table}

- The ratios to the minimal React Router page (by throughput and by CPU) are to the mean of its two runs, at the start and at the end: ${minimalFirstRow.requestsPerSecond.toFixed(0)} and ${minimalLastRow.requestsPerSecond.toFixed(0)} req/s${referenceMoved ? ", more than 15 % apart: the machine's speed changed during this run, so its ratios are not a measure" : ", within 15 %"}.
- "Server CPU ms / request": the answering process's CPU time (user and system, all its threads) during the measured ${DURATION_S} s over the requests answered; "by CPU" is the minimal page's figure over the row's. Requests per second also count the client: autocannon runs on the same cores.
- The storefront is started as \`npm start\` does (\`node ${serverArgs().join(" ")}\`), with the page cache at its default except on the "rendered, no cache" rows (\`PAGE_CACHE_SECONDS=0\`); the minimal React Router reference runs on the same \`server.ts\` without the heap cap, its faster setting.
- Peak RSS under load (target ≤ 250 MB): ${storefrontPeakRss.toFixed(0)} MB with the page cache, ${renderingPeakRss.toFixed(0)} MB rendering every page.
- Process start to first 200 on \`/\` (embedded defaults, identity emulator included): ${startMs.toFixed(0)} ms (target ≤ 2000 ms).

${workerSection}
<!-- bench:end -->`;

const file = "docs/performance.md";
let current = "";
try {
  current = readFileSync(file, "utf8");
} catch {
  current = "# Performance\n\n<!-- bench:start -->\n<!-- bench:end -->\n";
}
writeFileSync(file, current.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, report));
console.log(`\nResults written to ${file}`);
