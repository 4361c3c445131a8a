import { describe, expect, it } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, claimChunkReload, isChunkLoadError } from "./chunk-reload";

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe("chunk load failures", () => {
  it("recognises the browsers' dynamic-import failures", () => {
    expect(
      isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /build/x.js")),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("Failed to fetch dynamically imported module")).toBe(false);
  });

  it("reloads once per path, then waits out the 10-second guard", () => {
    const storage = memoryStorage();
    expect(claimChunkReload("/plans", 1_000, storage)).toBe(true);
    expect(claimChunkReload("/plans", 1_000 + CHUNK_RELOAD_GUARD_MS - 1, storage)).toBe(false);
    expect(claimChunkReload("/cart", 2_000, storage)).toBe(true);
    expect(claimChunkReload("/plans", 1_000 + CHUNK_RELOAD_GUARD_MS, storage)).toBe(true);
  });
});
