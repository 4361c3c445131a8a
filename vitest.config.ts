import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/**
 * The data-layer tests, named `*.db.test.ts`: they open their database with
 * tests/support/test-database.ts and run once on SQLite (in `unit`) and once on PostgreSQL
 * (in `postgres`), decision 0074. A new one joins both by its name alone.
 */
const DATA_LAYER_TESTS = "{app,server,tests/unit,scripts}/**/*.db.test.{ts,tsx}";

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
