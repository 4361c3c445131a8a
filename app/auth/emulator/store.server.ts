import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where the embedded emulator keeps its user pools: one JSON file per pool, as cognito-local
 * does, but safe under load. cognito-local's own store opens a pool once per request until the
 * first open has finished (so requests arriving together after a start each read the file while
 * another rewrites it, and fail with "invalid or corrupted format") and rewrites the whole file
 * with overlapping writes (so a shorter write can leave a longer one's tail behind, and the next
 * start cannot read the pool). Here each pool is opened once, and its writes run one after the
 * other, each to a temporary file renamed over the old one: a reader sees the old file or the new.
 */

/** The subset of StormDB (cognito-local's file database) this module drives. */
export interface StormDatabase {
  default(value: unknown): StormDatabase;
  save(): Promise<void> | null;
}
export type StormDatabaseClass = new (engine: JsonFileEngine) => StormDatabase;

/**
 * cognito-local stores `...Date` fields as ISO strings (what JSON.stringify makes of a Date) and
 * reads them back as dates.
 */
function reviveDates(key: string, value: unknown) {
  if (key.endsWith("Date") && (typeof value === "string" || typeof value === "number")) {
    return new Date(value);
  }
  return value;
}

interface PendingWrite {
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A StormDB engine: read once at open, then atomic writes, one at a time. Changes asked for
 * while a write is under way share the next write, which takes the state as it is when it
 * starts: under a burst of sign-ins the file is rewritten a few times, not once per change.
 */
export class JsonFileEngine {
  private writing = false;
  private pending: PendingWrite | null = null;
  private state: unknown;
  private writes = 0;

  constructor(readonly file: string) {}

  init(): unknown {
    if (!existsSync(this.file)) {
      writeFileSync(this.file, "{}");
      return {};
    }
    return this.read();
  }

  read(): unknown {
    const text = readFileSync(this.file, "utf8");
    try {
      return JSON.parse(text === "" ? "{}" : text, reviveDates);
    } catch (error) {
      throw new Error(`Failed to load the identity emulator's file ${path.basename(this.file)}`, {
        cause: error,
      });
    }
  }

  /** Resolves once a write that began after this call, and so holds `state`, is on disk. */
  write(state: unknown): Promise<void> {
    this.state = state;
    const waiting = this.pending;
    if (waiting) return waiting.done;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((onDone, onError) => {
      resolve = onDone;
      reject = onError;
    });
    this.pending = { done, resolve, reject };
    this.startNextWrite();
    return done;
  }

  private startNextWrite() {
    if (this.writing || !this.pending) return;
    const { resolve, reject } = this.pending;
    this.pending = null;
    this.writing = true;
    // Unindented: the whole pool is written after every sign-in, on the server's event loop.
    const text = JSON.stringify(this.state);
    const temporary = `${this.file}.${process.pid}.${++this.writes}.tmp`;
    writeFile(temporary, text)
      .then(() => rename(temporary, this.file))
      .then(resolve, reject)
      .finally(() => {
        this.writing = false;
        this.startNextWrite();
      });
  }
}

/**
 * cognito-local's data store factory interface, with each store opened once however many
 * requests ask for it at the same time.
 */
export function createSerialDataStoreFactory<Store>(options: {
  directory: string;
  StormDB: StormDatabaseClass;
  wrap: (database: StormDatabase) => Store;
}) {
  const stores = new Map<string, Promise<Store>>();
  return {
    create(_ctx: unknown, id: string, defaults: unknown): Promise<Store> {
      let store = stores.get(id);
      if (!store) {
        store = (async () => {
          const database = new options.StormDB(
            new JsonFileEngine(path.join(options.directory, `${id}.json`)),
          );
          database.default(defaults);
          await database.save();
          return options.wrap(database);
        })();
        stores.set(id, store);
        // A failed open (an unreadable file) is tried again by the next request.
        store.catch(() => stores.delete(id));
      }
      return store;
    },
  };
}
