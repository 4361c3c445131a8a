// Bundles the programs a production install runs into dist/: server.ts (with server/, the Express layer) for `npm start`, and the
// operator's `npm run ops` and `npm run migrate`, so none of them needs a dev dependency (tsx)
// where they run (decision 0087). The app modules they share, and those loaded only when needed
// (the embedded identity emulator, whose packages are dev dependencies), go to dist/chunks/.
import { rmSync } from "node:fs";
import { build } from "esbuild";

// A chunk's name carries its content's hash: old ones would pile up.
rmSync("dist/chunks", { recursive: true, force: true });

await build({
  entryPoints: { server: "server.ts", ops: "scripts/ops.mjs", migrate: "scripts/migrate.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
