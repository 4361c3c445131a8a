// What the build records about itself for /metrics' storefront_build_info (decision 0143): the
// commit it was built from. BUILD_COMMIT when the builder says it (an image built without .git:
// `docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD)`), else `git rev-parse HEAD`, else
// "unknown" (no git, or not a checkout). scripts/build-server.mjs writes it to dist/build-info.json.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

export const BUILD_INFO_FILE = "build-info.json";

/** The commit being built, or "unknown". */
export function buildCommit(env = process.env, cwd = process.cwd()) {
  const given = env.BUILD_COMMIT?.trim();
  if (given) return given;
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return /^[0-9a-f]{7,64}$/.test(commit) ? commit : "unknown";
  } catch {
    return "unknown";
  }
}

/** Writes `{ "commit": … }` into `outdir`. */
export function writeBuildInfo(outdir, env = process.env, cwd = process.cwd()) {
  writeFileSync(
    path.join(outdir, BUILD_INFO_FILE),
    `${JSON.stringify({ commit: buildCommit(env, cwd) })}\n`,
  );
}
