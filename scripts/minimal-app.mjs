// bench/minimal, the smallest React Router app (one route, React and React Router's runtime
// hydrating it): the framework's floor that npm run bench and npm run lighthouse measure the
// store's pages against.
import { execSync } from "node:child_process";
import path from "node:path";

export const MINIMAL_APP_DIR = path.resolve(import.meta.dirname, "../bench/minimal");

/** Builds it with the root install's React Router (it has no install of its own). */
export function buildMinimalApp() {
  execSync("../../node_modules/.bin/react-router build > /dev/null", {
    cwd: MINIMAL_APP_DIR,
    stdio: "inherit",
  });
}
