import { execFileSync } from "node:child_process";
import type { Browser, TestInfo } from "@playwright/test";
import { npmScriptArgs } from "../../../scripts/server-command.mjs";
import {
  freePort,
  startServer,
  stopServer,
  waitForHealth,
  type ServerProcess,
} from "../../support/server-process";

/**
 * A browser context of its own on a server the spec started, with JavaScript as the test's
 * project runs it.
 */
export async function pageOn(browser: Browser, testInfo: TestInfo, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    locale: "es-MX",
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false,
  });
  return { context, page: await context.newPage() };
}

/**
 * `npm run ops -- <args>` (the build) against that server's own database, as the operator runs
 * it: its output, or the command's error when it exits non-zero.
 */
export function opsOn(server: ServerProcess, sessionSecret: string, args: string[]): string {
  return execFileSync(process.execPath, [...npmScriptArgs("ops"), ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      DATA_DIR: server.dataDir,
      SESSION_SECRET: sessionSecret,
    },
    encoding: "utf8",
  });
}

const CLOCK_SESSION_SECRET = "movable-clock-secret-0123456789-abcdefghijklmnop";

/**
 * A server of the test's own (with `settings` added to its environment) whose wall clock the test
 * moves forward (movable-clock.mjs), and a page on it: a journey past one of the server's windows (the 180 s sign-in state, an
 * authenticator's 30 s step) moves the clock instead of waiting. `request` shares the page's
 * cookies and server.
 */
export async function serverWithMovableClock(
  browser: Browser,
  testInfo: TestInfo,
  settings: Record<string, string> = {},
) {
  const port = freePort(testInfo.workerIndex);
  const baseURL = `http://localhost:${port}`;
  const server = startServer(
    { NODE_ENV: "test", PORT: String(port), SESSION_SECRET: CLOCK_SESSION_SECRET, ...settings },
    { movableClock: true },
  );
  try {
    await waitForHealth(baseURL, server);
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  const { context, page } = await pageOn(browser, testInfo, baseURL);
  return {
    server,
    baseURL,
    context,
    page,
    request: context.request,
    close: async () => {
      await context.close();
      await stopServer(server);
    },
  };
}
