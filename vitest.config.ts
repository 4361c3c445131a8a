import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/**
 * The data-layer tests: they open their database with tests/support/test-database.ts and run
 * once on SQLite and once on PostgreSQL (decision 0074).
 */
const DATA_LAYER_TESTS = [
  "app/db/**/*.test.ts",
  "app/catalog/catalog.server.test.ts",
  "app/checkout/orders.server.test.ts",
  "app/payments/payments.server.test.ts",
  "app/portability/requests.server.test.ts",
  "app/topup/topups.server.test.ts",
  "app/esim/activations.server.test.ts",
  "app/auth/browser-access.server.test.ts",
  "app/mail/compose.server.test.ts",
  "app/mail/mailer.server.test.ts",
  "app/ops/changes.server.test.ts",
  "app/ops/queries.server.test.ts",
  "app/lib/rate-limit.test.ts",
  "app/line/simulator.server.test.ts",
  "tests/unit/stripe-payments.test.ts",
];

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    environment: "node",
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "tests/unit/**/*.test.{ts,tsx}",
            "scripts/**/*.test.{ts,mjs}",
          ],
          provide: { databaseEngine: "sqlite" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: DATA_LAYER_TESTS,
          // Starts (or finds) the PostgreSQL server; the run fails with one line if it cannot.
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          provide: { databaseEngine: "postgres" },
        },
      },
    ],
  },
});
