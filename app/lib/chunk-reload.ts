/** Spec §8: a failed code-chunk load reloads the page once, with a 10-second guard per path. */
export const CHUNK_RELOAD_GUARD_MS = 10_000;
const STORAGE_PREFIX = "chunk-reload:";

const CHUNK_ERROR_PATTERNS = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /loading (css )?chunk [\w-]+ failed/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "ChunkLoadError" ||
    CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(error.message))
  );
}

type GuardStorage = Pick<Storage, "getItem" | "setItem">;

/**
 * True when the page should reload for this path now, and records the attempt; false when a
 * reload for the same path happened less than the guard period ago.
 */
export function claimChunkReload(path: string, now: number, storage: GuardStorage): boolean {
  const key = STORAGE_PREFIX + path;
  const last = Number(storage.getItem(key));
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(key, String(now));
  return true;
}

/**
 * In the browser, after the error boundary caught `error` on `path`: reloads the page once if a
 * code chunk failed to load, and not again for the same path within the guard period. The clock is
 * read here, not in the boundary: nothing that renders a page reads one (decision 0084).
 */
export function reloadAfterChunkError(error: unknown, path: string) {
  if (isChunkLoadError(error) && claimChunkReload(path, Date.now(), window.sessionStorage)) {
    window.location.reload();
  }
}
