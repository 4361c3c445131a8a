import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The commit the running build was made from, as scripts/build-info.mjs recorded it in
 * dist/build-info.json at `npm run build`; "unknown" without that file (`npm run dev`) or a
 * commit in it.
 */
export function readBuildCommit(projectRoot: string): string {
  try {
    const recorded = JSON.parse(
      readFileSync(path.join(projectRoot, "dist", "build-info.json"), "utf8"),
    ) as { commit?: unknown };
    return typeof recorded.commit === "string" && recorded.commit ? recorded.commit : "unknown";
  } catch {
    return "unknown";
  }
}
