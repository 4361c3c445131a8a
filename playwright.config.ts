import { defineConfig } from "@playwright/test";
import chromiumFlags from "./scripts/chromium-flags.json" with { type: "json" };

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;

const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    // Debian's headless shell: Chromium's own build without a window system, about half the CPU
    // of the full browser for the same journeys (decision 0131).
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
    // Shared with `npm run lighthouse`: headless as root, no background traffic.
    args: chromiumFlags,
  },
};

/**
 * Every journey runs twice: with JavaScript and without it. The server is the production build,
 * started with embedded defaults in a throwaway data directory.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The JSON report keeps every test's duration: where the suite's time goes (docs/performance.md).
  reporter: [["list"], ["json", { outputFile: "playwright-report/e2e-results.json" }]],
  use: { baseURL: BASE_URL, locale: "es-MX", trace: "on-first-retry" },
  projects: [
    { name: "js-enabled", use: { ...chromium, javaScriptEnabled: true } },
    { name: "js-disabled", use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT) },
    // On PostgreSQL the server script drops the run's database once the server has stopped.
    ...(process.env.E2E_DATABASE_URL
      ? { gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 } }
      : {}),
    stdout: "ignore",
    stderr: "pipe",
  },
});
