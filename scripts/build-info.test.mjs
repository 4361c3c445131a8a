import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readBuildCommit } from "../server/build-info";
import { buildCommit, writeBuildInfo } from "./build-info.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outside = mkdtempSync(path.join(os.tmpdir(), "storefront-build-info-"));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe("the build's commit (storefront_build_info, decision 0143)", () => {
  it("is BUILD_COMMIT when given, else git's HEAD, else unknown", () => {
    expect(buildCommit({ BUILD_COMMIT: "abc1234" }, root)).toBe("abc1234");
    expect(buildCommit({}, root)).toMatch(/^[0-9a-f]{40}$/);
    // Not a checkout (an image built without .git): unknown, never a failed build.
    expect(buildCommit({}, outside)).toBe("unknown");
  });

  it("is written into dist/ at build time and read back by the server", () => {
    expect(readBuildCommit(outside)).toBe("unknown");
    const dist = path.join(outside, "dist");
    mkdirSync(dist);
    writeBuildInfo(dist, { BUILD_COMMIT: "feedface" }, outside);
    expect(JSON.parse(readFileSync(path.join(dist, "build-info.json"), "utf8"))).toEqual({
      commit: "feedface",
    });
    expect(readBuildCommit(outside)).toBe("feedface");
  });
});
