import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
/**
 * What `react-router build` reads: the app, its configuration, the files of public/, and the
 * operator's sample data the app imports (content/).
 */
const SOURCES = [
  "app",
  "content",
  "public",
  "react-router.config.ts",
  "vite.config.ts",
  "postcss.config.js",
  "tsconfig.json",
  "package.json",
];

/**
 * Another build of this project, as the next deploy brings one: the sources with one change (a
 * comment kept in the browser entry, so the client build and its version differ), compiled by
 * `react-router build` in a directory of its own, with the server program (`dist/`) beside it. Its
 * `build/client/assets` holds only its own script chunks, as after a deploy that replaced the
 * directory. Start it with `startServer(env, { cwd: dir })`.
 */
export function buildAnotherVersion(change: string): { dir: string; version: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "storefront-next-build-"));
  for (const source of SOURCES) {
    cpSync(path.join(projectRoot, source), path.join(dir, source), { recursive: true });
  }
  cpSync(path.join(projectRoot, "dist"), path.join(dir, "dist"), { recursive: true });
  symlinkSync(realpathSync(path.join(projectRoot, "node_modules")), path.join(dir, "node_modules"));
  const entry = path.join(dir, "app", "entry.client.tsx");
  writeFileSync(entry, `/*! ${change} */\n${readFileSync(entry, "utf8")}`);
  const cli = path.join(dir, "node_modules", "@react-router", "dev");
  const { bin } = JSON.parse(readFileSync(path.join(cli, "package.json"), "utf8")) as {
    bin: { "react-router": string };
  };
  const reactRouter = path.join(cli, bin["react-router"]);
  const run = spawnSync(process.execPath, [reactRouter, "build"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) {
    throw new Error(`react-router build failed:\n${run.stdout}\n${run.stderr}`);
  }
  return { dir, version: buildVersionIn(dir) };
}

/** The version the client manifest of the build in `dir` names (what the server answers too). */
function buildVersionIn(dir: string): string {
  const assets = path.join(dir, "build", "client", "assets");
  const manifest = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!manifest) throw new Error(`no client manifest in ${assets}`);
  const version = /"version":"([^"]+)"/.exec(readFileSync(path.join(assets, manifest), "utf8"));
  if (!version) throw new Error(`no version in ${manifest}`);
  return version[1];
}
