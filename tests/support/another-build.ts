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
/** What `remix build` reads: the app, its configuration, and the locale files the app imports. */
const SOURCES = ["app", "remix.config.js", "postcss.config.js", "tsconfig.json", "package.json"];

/**
 * Another build of this project, as the next deploy brings one: the sources with one change (a
 * comment kept in the browser entry, so the client build and its version differ), compiled by
 * `remix build` in a directory of its own, with the server program (`dist/`) and the public files
 * beside it. Its `public/build` holds only its own script chunks, as after a deploy that replaced
 * the directory. Start it with `startServer(env, { cwd: dir })`. About ten seconds.
 */
export function buildAnotherVersion(change: string): { dir: string; version: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "storefront-next-build-"));
  for (const source of SOURCES) {
    cpSync(path.join(projectRoot, source), path.join(dir, source), { recursive: true });
  }
  for (const entry of readdirSync(path.join(projectRoot, "public"))) {
    if (entry === "build") continue;
    cpSync(path.join(projectRoot, "public", entry), path.join(dir, "public", entry), {
      recursive: true,
    });
  }
  cpSync(path.join(projectRoot, "dist"), path.join(dir, "dist"), { recursive: true });
  symlinkSync(realpathSync(path.join(projectRoot, "node_modules")), path.join(dir, "node_modules"));
  const entry = path.join(dir, "app", "entry.client.tsx");
  writeFileSync(entry, `/*! ${change} */\n${readFileSync(entry, "utf8")}`);
  const remix = path.join(dir, "node_modules", "@remix-run", "dev", "dist", "cli.js");
  const run = spawnSync(process.execPath, [remix, "build"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`remix build failed:\n${run.stdout}\n${run.stderr}`);
  const version = readFileSync(path.join(dir, "build", "version.txt"), "utf8").trim();
  return { dir, version };
}
