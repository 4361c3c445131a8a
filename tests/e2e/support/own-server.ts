import { execFileSync } from "node:child_process";
import type { Browser, TestInfo } from "@playwright/test";
import { npmScriptArgs } from "../../../scripts/server-command.mjs";
import type { ServerProcess } from "../../support/server-process";

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
