import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A development outbox: a directory of JSON files, one per captured message, named by the time
 * it was captured so that a listing sorts oldest to newest, and by its recipient so that a look
 * for one recipient opens their files only (an outbox of a few hundred e-mails took a third of a
 * second to search by reading each). The e-mail outbox and the SMS outbox are two of them.
 */

const OUTBOX_FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[\w-]+\.json$/;
/** The recipient's part of a name (files written before it was added have none). */
const RECIPIENT_PART = /Z-([0-9a-f]{8})-[0-9a-f]{12}\.json$/;

/** How many files a look at an outbox reads at most, whatever the filter. */
const OUTBOX_SCAN_LIMIT = 2_000;

/**
 * `2026-11-24T01-43-33-123Z-<8 hex>-<12 hex>`: the ISO time with only characters every file
 * system takes, the recipient's key (recipientKey), then a random part for two messages of the
 * same millisecond.
 */
export function newOutboxId(createdAt: Date, recipient: string): string {
  const time = createdAt.toISOString().replace(/[:.]/g, "-");
  return `${time}-${recipientKey(recipient)}-${randomBytes(6).toString("hex")}`;
}

/** A short digest of the recipient as its outbox compares it (an address in lower case, a number). */
export function recipientKey(recipient: string): string {
  return createHash("sha256").update(recipient).digest("hex").slice(0, 8);
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
 * The newest records of an outbox first, those `keep` accepts, at most `limit`; with `recipient`
 * (as recipientKey takes it), only the files named for it are opened. A missing directory is an
 * empty outbox; a file that does not read is skipped.
 */
export async function readOutboxFiles<T>(
  dir: string,
  options: { limit: number; keep?: (record: T) => boolean; recipient?: string | null },
): Promise<T[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return [];
    throw error;
  }
  const key = options.recipient ? recipientKey(options.recipient) : null;
  const files = names
    .filter((name) => OUTBOX_FILE.test(name))
    .filter((name) => {
      const named = RECIPIENT_PART.exec(name)?.[1];
      return !key || !named || named === key;
    })
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
