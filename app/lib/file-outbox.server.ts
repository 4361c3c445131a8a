import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A development outbox: a directory of JSON files, one per captured message, named by the time
 * it was captured so that a listing sorts oldest to newest. The e-mail outbox and the SMS outbox
 * are two of them.
 */

const OUTBOX_FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[\w-]+\.json$/;

/** How many files a look at an outbox reads at most, whatever the filter. */
const OUTBOX_SCAN_LIMIT = 2_000;

/**
 * `2026-11-24T01-43-33-123Z-<12 hex>`: the ISO time with only characters every file system takes,
 * then a random part for two messages of the same millisecond.
 */
export function newOutboxId(createdAt: Date): string {
  return `${createdAt.toISOString().replace(/[:.]/g, "-")}-${randomBytes(6).toString("hex")}`;
}

/**
 * Writes `record` as `<dir>/<id>.json` (readable by its owner only), to a temporary name first
 * and renamed, so a reader never sees half a message.
 */
export async function writeOutboxFile(dir: string, id: string, record: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.json`);
  const temporary = path.join(dir, `.${id}.tmp`);
  try {
    await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The newest records of an outbox first, those `keep` accepts, at most `limit`. A missing
 * directory is an empty outbox; a file that does not read is skipped.
 */
export async function readOutboxFiles<T>(
  dir: string,
  options: { limit: number; keep?: (record: T) => boolean },
): Promise<T[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return [];
    throw error;
  }
  const files = names
    .filter((name) => OUTBOX_FILE.test(name))
    .sort()
    .reverse()
    .slice(0, OUTBOX_SCAN_LIMIT);
  const records: T[] = [];
  for (const name of files) {
    if (records.length >= options.limit) break;
    let record: T;
    try {
      record = JSON.parse(await readFile(path.join(dir, name), "utf8")) as T;
    } catch {
      continue;
    }
    if (options.keep && !options.keep(record)) continue;
    records.push(record);
  }
  return records;
}
