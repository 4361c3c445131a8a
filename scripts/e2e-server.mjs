// Starts the production build for the end-to-end tests with a fresh data directory, so every run
// begins from the embedded defaults. NODE_ENV=test keeps cookies usable over plain http and
// turns on the development-only helpers the tests read (the identity emulator's outbox).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverArgs } from "./server-command.mjs";
import { createThrowawayDatabase } from "./throwaway-database.mjs";

const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-e2e-"));

/**
 * E2E_DATABASE_URL (a PostgreSQL server whose role may create databases): the server runs on
 * PostgreSQL, in a new database made for this run and dropped after it. Unset: SQLite under the
 * fresh DATA_DIR. Servers the specs start themselves stay on SQLite either way, but for database-outage.spec.ts (PostgreSQL behind a proxy it cuts).
 */
const { E2E_DATABASE_URL, ...environment } = process.env;
const database = E2E_DATABASE_URL
  ? await createThrowawayDatabase(E2E_DATABASE_URL, "storefront_e2e")
  : null;
const child = spawn(process.execPath, serverArgs(), {
  stdio: "inherit",
  env: {
    ...environment,
    ...(database ? { DATABASE_URL: database.url } : {}),
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    SESSION_SECRET: "e2e-secret-that-is-long-enough-for-the-schema-0123456789",
    // Every test browser comes from 127.0.0.1: with the default per-address limit (300 auth
    // attempts in 15 min) a repeated run of the sign-in journeys is refused with 429s after a
    // few minutes. The per-address limits are proven on a server of their own
    // (security-process.spec.ts); the per-account limits stay at their defaults here.
    AUTH_RATE_LIMIT_PER_IP: "1000000",
    // The same for top-ups; the per-number limit stays at its default (topup.spec.ts).
    TOPUP_RATE_LIMIT_PER_IP: "1000000",
    // The same for SMS codes (lines.spec.ts), no back-off between codes to one number (the
    // journeys ask for a second code at once) and the store's hourly SMS budget out of reach of
    // a whole run (fuzz.spec.ts asks from browsers without cookies). The back-off and the budget
    // are proven on a server of their own (sms-codes.spec.ts); the per-browser limit and the
    // wrong codes per number stay at their defaults.
    LINE_CODE_RATE_LIMIT_PER_IP: "1000000",
    LINE_CODE_NUMBER_BACKOFF_SECONDS: "0",
    LINE_CODE_SMS_PER_HOUR: "1000000",
  },
});
const stop = (signal) => child.kill(signal);
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
child.on("exit", async (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop().catch(() => undefined);
  process.exit(code ?? 0);
});
