// Bundles the programs a production install runs into dist/: server.ts (with server/, the Express layer) for `npm start`, and the
// operator's `npm run ops` and `npm run migrate`, so none of them needs a dev dependency (tsx)
// where they run (decision 0087). The app modules they share, and those loaded only when needed
// (the embedded identity emulator, whose packages are dev dependencies), go to dist/chunks/.
import { rmSync } from "node:fs";
import { writeBuildInfo } from "./build-info.mjs";
import { buildPrograms } from "./programs-build.mjs";

// A chunk's name carries its content's hash: old ones would pile up.
rmSync("dist/chunks", { recursive: true, force: true });

await buildPrograms(
  { server: "server.ts", ops: "scripts/ops.mjs", migrate: "scripts/migrate.ts" },
  "dist",
);

// The commit this build was made from, for /metrics (storefront_build_info).
writeBuildInfo("dist");
