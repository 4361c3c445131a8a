import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MOVABLE_CLOCK = fileURLToPath(new URL("./movable-clock.mjs", import.meta.url));

/**
 * A production-build server process of its own, for tests that must control the process itself
 * (its environment, its logs, stopping and restarting it) rather than share the Playwright server.
 */
export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stdout and stderr, in order. */
  output: string[];
  exited: Promise<number | null>;
  dataDir: string;
  /**
   * Moves the server's wall clock forward (started with `movableClock`): a journey past one of
   * its windows moves the clock instead of waiting (movable-clock.mjs).
   */
  moveClock: (seconds: number) => Promise<void>;
  /** The server's wall clock, in epoch milliseconds: this machine's, plus what it was moved. */
  now: () => number;
}

/**
 * `cwd`: the install to run (default: this project's build). `movableClock`: the server's clock
 * can be moved forward with `moveClock` (one process only: WEB_CONCURRENCY=1).
 */
export function startServer(
  env: Record<string, string>,
  { cwd, movableClock = false }: { cwd?: string; movableClock?: boolean } = {},
): ServerProcess {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "storefront-proc-"));
  const output: string[] = [];
  const args = movableClock ? ["--import", MOVABLE_CLOCK, "dist/server.js"] : ["dist/server.js"];
  const child = spawn(process.execPath, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      LOG_LEVEL: "info",
      ...env,
      DATA_DIR: dataDir,
    } as unknown as NodeJS.ProcessEnv,
    stdio: movableClock ? ["pipe", "pipe", "pipe", "ipc"] : "pipe",
  }) as ChildProcessWithoutNullStreams;
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let movedMs = 0;
  const moveClock = (seconds: number) => {
    if (!movableClock) throw new Error("this server was started without a movable clock");
    return new Promise<void>((resolve, reject) => {
      const moved = (message: unknown) => {
        const total = (message as { clockMovedBySeconds?: number })?.clockMovedBySeconds;
        if (total === undefined) return;
        child.off("message", moved);
        movedMs = total * 1000;
        resolve();
      };
      child.on("message", moved);
      child.send({ moveClockBySeconds: seconds }, (error) => error && reject(error));
    });
  };
  return { child, output, exited, dataDir, moveClock, now: () => Date.now() + movedMs };
}

export async function waitForHealth(
  baseUrl: string,
  server: { child: { exitCode: number | null }; output: string[] },
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited early:\n${server.output.join("")}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("server did not become healthy");
}

export async function stopServer(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null) server.child.kill("SIGTERM");
  return server.exited;
}

/**
 * A port per worker and call, away from the shared Playwright server's. SPAWN_PORT_BASE lets two
 * test runs on one machine keep apart.
 */
let portOffset = 0;
export function freePort(workerIndex: number): number {
  portOffset += 1;
  return Number(process.env.SPAWN_PORT_BASE ?? 3300) + workerIndex * 50 + (portOffset % 50);
}
