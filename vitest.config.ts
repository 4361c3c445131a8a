import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The data-layer tests, named `*.db.test.ts`: they open their database with
 * tests/support/test-database.ts and run once on SQLite (in `unit`) and once on PostgreSQL
 * (in `postgres`), decision 0074. A new one joins both by its name alone.
 */
const DATA_LAYER_TESTS = "{app,server,tests/unit,scripts}/**/*.db.test.{ts,tsx}";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    // Vitest's default leaves a core for itself (one worker on a 2-core machine); its main process
    // mostly waits, and the tests then take about half as long on two (docs/testing.md).
    maxWorkers: availableParallelism(),
    // The files of a worker share its modules instead of loading them again for each file: half
    // the phase's time here (decision 0131). A test file leaves no global changed (timers, stubs)
    // and mocks no module (eslint.config.js refuses vi.mock): it takes its doubles as parameters.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "server/**/*.test.ts",
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
          include: [DATA_LAYER_TESTS],
          // Starts (or finds) the PostgreSQL server; the run fails with one line if it cannot.
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          provide: { databaseEngine: "postgres" },
        },
      },
    ],
  },
});
