// The production server as `npm start` runs it, started and stopped by the soak: one process per
// phase, its JSON log lines kept so that a 5xx can be matched to the line the server wrote.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import net from "node:net";
import readline from "node:readline";
import { productionTestEnvironment, serverArgs } from "../server-command.mjs";

const STARTUP_TIMEOUT_MS = 30_000;
/** server.ts lets in-flight requests finish for 10 s; a little more before we insist. */
const SHUTDOWN_TIMEOUT_MS = 15_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free loopback port: the kernel picks one, we release it and hand it to the server. */
export function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A production session secret: 48 random bytes, far above the 32 characters required. */
export function generateSessionSecret() {
  return randomBytes(48).toString("base64url");
}

/**
 * Every process started here, so that an error or Ctrl-C anywhere in the soak still stops them
 * (the soak must never leave a server behind on a shared machine).
 */
const running = new Set();

export function killEveryServer() {
  for (const server of running) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill("SIGKILL");
    }
  }
}

/** What opens /readyz's detail (and /metrics) on the soak's production server. */
export const SOAK_METRICS_TOKEN = randomBytes(24).toString("base64url");

/**
 * The environment the soak's server runs with, and `npm run ops` beside it (the operator's
 * commands use the server's own configuration).
 */
export function serverEnvironment({ origin, dataDir, sessionSecret, logLevel, extraEnv = {} }) {
  const port = new URL(origin).port;
  return {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    ...productionTestEnvironment(origin),
    DATA_DIR: dataDir,
    SESSION_SECRET: sessionSecret,
    LOG_LEVEL: logLevel,
    // /readyz tells its queues only to whoever sends it (the soak waits on its line jobs).
    METRICS_TOKEN: SOAK_METRICS_TOKEN,
    // Every simulated customer comes from 127.0.0.1, so the per-IP limit of the sign-in form
    // (300 attempts in 15 min by default) would refuse most of them with a 429 within seconds;
    // the per-account limit is raised too because a customer signs in many times an hour here.
    // Both limits stay in force, only far above what this load reaches.
    AUTH_RATE_LIMIT_PER_IP: "10000000",
    AUTH_RATE_LIMIT_PER_USERNAME: "10000000",
    // The same for top-ups: one address for everyone, and each customer tops up its own lines.
    TOPUP_RATE_LIMIT_PER_IP: "10000000",
    TOPUP_RATE_LIMIT_PER_LINE: "10000000",
    // And for the SMS codes of /saldo and of adding a line.
    LINE_CODE_RATE_LIMIT_PER_IP: "10000000",
    LINE_CODE_RATE_LIMIT_PER_HOLDER: "10000000",
    LINE_CODE_NUMBER_BACKOFF_SECONDS: "0",
    LINE_CODE_FAILED_CHECKS_PER_NUMBER: "10000000",
    LINE_CODE_SMS_PER_HOUR: "10000000",
    // Automatic top-ups (issue 29): their scheduler every 2 s, a declined charge tried again at
    // the next round, so that a one-minute run sees charges made, declined and stopped.
    AUTO_TOPUP_SWEEP_SECONDS: "2",
    AUTO_TOPUP_RETRY_MINUTES: "0",
    // Worker processes (node:cluster) and the database engine, as the soak was asked to run.
    WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? "1",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    // For profiling a run (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`); workers inherit it.
    ...(process.env.SOAK_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SOAK_NODE_OPTIONS } : {}),
    ...extraEnv,
  };
}

/**
 * Starts `node <npm start's arguments> dist/server.js` and resolves once /healthz answers.
 * `logLevel` is "info" only for the phase that needs the identity emulator's startup line.
 */
export async function startServer({ dataDir, sessionSecret, logLevel, extraEnv = {} }) {
  const port = await freeLoopbackPort();
  const origin = `http://127.0.0.1:${port}`;
  const environment = serverEnvironment({ origin, dataDir, sessionSecret, logLevel, extraEnv });
  const child = spawn(process.execPath, serverArgs(), {
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const server = {
    child,
    origin,
    port,
    /** Its environment: `npm run ops` beside it runs with the same. */
    environment,
    /** Parsed JSON log lines (stdout), in order. */
    logLines: [],
    /** Anything that was not a JSON line (stderr, crashes). */
    rawOutput: [],
    exited: new Promise((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    ),
  };
  running.add(server);
  server.exited.then(() => running.delete(server));
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      server.logLines.push(JSON.parse(line));
    } catch {
      // SOAK_SERVER_OUTPUT keeps what a profiling run prints (e.g. --trace-gc) out of the report.
      if (process.env.SOAK_SERVER_OUTPUT)
        appendFileSync(process.env.SOAK_SERVER_OUTPUT, `${line}\n`);
      else server.rawOutput.push(line);
    }
  });
  readline.createInterface({ input: child.stderr }).on("line", (line) => {
    server.rawOutput.push(line);
  });

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited at start:\n${server.rawOutput.join("\n")}`);
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not answer /healthz within ${STARTUP_TIMEOUT_MS} ms`);
    }
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return server;
}

/** The first log line with this message, waiting for it a little (logs are asynchronous). */
export async function waitForLogLine(server, message, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = server.logLines.find((candidate) => candidate.msg === message);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`the server never logged "${message}"`);
    await sleep(20);
  }
}

/** SIGTERM, as an operator stops it; SIGKILL only if it does not exit in time. */
export async function stopServer(server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    return server.exited;
  }
  server.child.kill("SIGTERM");
  const outcome = await Promise.race([server.exited, sleep(SHUTDOWN_TIMEOUT_MS).then(() => null)]);
  if (outcome) return outcome;
  server.child.kill("SIGKILL");
  const killed = await server.exited;
  return { ...killed, forced: true };
}
