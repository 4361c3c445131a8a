// bench/minimal, the smallest Remix app (one route, React and Remix's runtime hydrating it): the
// framework's floor that npm run bench and npm run lighthouse measure the store's pages against.
import { execSync } from "node:child_process";
import path from "node:path";

export const MINIMAL_REMIX_DIR = path.resolve(import.meta.dirname, "../bench/minimal");

/** Builds it with the root install's Remix compiler (it has no install of its own). */
export function buildMinimalRemix() {
  execSync("node ../../node_modules/@remix-run/dev/dist/cli.js build > /dev/null", {
    cwd: MINIMAL_REMIX_DIR,
    stdio: "inherit",
  });
}
