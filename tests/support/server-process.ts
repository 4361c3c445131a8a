import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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
}

/** `cwd`: the install to run (default: this project's build). */
export function startServer(
  env: Record<string, string>,
  { cwd }: { cwd?: string } = {},
): ServerProcess {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "storefront-proc-"));
  const output: string[] = [];
  const child = spawn(process.execPath, ["dist/server.js"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      LOG_LEVEL: "info",
      ...env,
      DATA_DIR: dataDir,
    } as unknown as NodeJS.ProcessEnv,
  });
  child.stdout.on("data", (chunk) => output.push(String(chunk)));
  child.stderr.on("data", (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited, dataDir };
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
