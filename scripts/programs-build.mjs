// How the programs a production install runs are bundled (decision 0087): ESM for Node 24, every
// package left to Node's own loader from node_modules, so the bundle runs from inside the
// project. scripts/build-server.mjs writes them to dist/; tests that run a program as the
// operator does (scripts/ops.test.ts) bundle its sources the same way.
import { build } from "esbuild";

/** Bundles `entryPoints` ({ name: source }) into `outdir`, shared modules as chunks. */
export function buildPrograms(entryPoints, outdir, { sourcemap = true } = {}) {
  return build({
    entryPoints,
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node24",
    packages: "external",
    sourcemap,
    logLevel: "warning",
  });
}
