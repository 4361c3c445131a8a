import { randomBytes } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  constants as fsConstants,
  existsSync,
  linkSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { DATABASE_FILE_NAME } from "~/db/db.server";
import { migrations } from "~/db/migrations";
import {
  postgresClientEnvironment,
  postgresDatabaseName,
  runPostgresTool,
  type ToolOutcome,
} from "./postgres-tools.server";

/**
 * `npm run ops -- respaldo` and `restaurar` (decision 0113): a consistent copy of the server's
 * database taken while it runs, and that copy put back into an empty DATA_DIR or an empty
 * PostgreSQL database, never over one that holds data.
 *
 * SQLite: SQLite's online backup API (better-sqlite3's `backup()`), every page in one step, so
 * the copy is the database as one read transaction saw it; in WAL mode the server's writes go on
 * meanwhile. PostgreSQL: `pg_dump -Fc` in a snapshot this module exports, so what it reports
 * counting is exactly what the file holds.
 */

/** Where the server's database is: the same two settings the server reads. */
export interface DatabaseLocation {
  dataDir: string;
  /** PostgreSQL instead of SQLite under `dataDir` (decision 0074). */
  databaseUrl: string | null;
  /** SQLite: how long to wait for the server's write lock (DB_BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
}

export type Engine = "sqlite" | "postgres";

/** What a backup holds: every table's rows, and the schema version (its migrations). */
export interface BackupContents {
  engine: Engine;
  rowsByTable: Record<string, number>;
  migrations: string[];
}

export type BackupOutcome =
  | { ok: true; file: string; bytes: number; contents: BackupContents; outsideBackup: string[] }
  | { ok: false; message: string };

export type RestoreOutcome =
  | { ok: true; file: string; restoredInto: string; contents: BackupContents }
  | { ok: false; message: string };

/** Files and folders under DATA_DIR the server may keep beside the database (README). */
export const DATA_DIR_ENTRIES_OUTSIDE_BACKUP = [
  "session-secret",
  "cognito-local",
  "outbox",
  "sms-outbox",
] as const;

/** The tables the operator is told about after a backup or a restore, in this order. */
export const SUMMARY_TABLES: readonly (readonly [table: string, one: string, many: string])[] = [
  ["orders", "pedido", "pedidos"],
  ["payments", "pago", "pagos"],
  ["topups", "recarga", "recargas"],
  ["mail_queue", "correo", "correos"],
  ["portability_requests", "solicitud de portabilidad", "solicitudes de portabilidad"],
  ["lines", "línea", "líneas"],
  ["registrations", "registro de titular", "registros de titular"],
];

/** SQLite's pages in one step: the whole copy is one read transaction (0x7fffffff, its maximum). */
const ALL_PAGES = 0x7fffffff;

const SQLITE_MAGIC = "SQLite format 3\0";
const PG_CUSTOM_MAGIC = "PGDMP";

const refuse = (message: string) => ({ ok: false as const, message });

/** Takes a backup of the database at `location` into `file` (an absolute path that must not exist). */
export async function takeBackup(location: DatabaseLocation, file: string): Promise<BackupOutcome> {
  if (existsSync(file)) {
    return refuse(`Ya existe ${file}: respaldo no sobrescribe un archivo; elige otro nombre.`);
  }
  const directory = path.dirname(file);
  if (!existsSync(directory)) return refuse(`No existe la carpeta ${directory}.`);
  // Written under a temporary name beside the file and linked to its name once complete: a
  // half-written backup never carries the name, and a file made meanwhile is not overwritten.
  const partial = path.join(
    directory,
    `.${path.basename(file)}.${randomBytes(4).toString("hex")}.parcial`,
  );
  try {
    const taken = location.databaseUrl
      ? await dumpPostgres(location.databaseUrl, partial)
      : await copySqlite(location, partial);
    if (!taken.ok) return taken;
    try {
      linkSync(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        return refuse(`Ya existe ${file}: respaldo no sobrescribe un archivo; elige otro nombre.`);
      }
      throw error;
    }
    return {
      ok: true,
      file,
      bytes: statSync(file).size,
      contents: taken.contents,
      outsideBackup: DATA_DIR_ENTRIES_OUTSIDE_BACKUP.filter((entry) =>
        existsSync(path.join(location.dataDir, entry)),
      ),
    };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function copySqlite(
  location: DatabaseLocation,
  partial: string,
): Promise<{ ok: true; contents: BackupContents } | { ok: false; message: string }> {
  const source = path.join(location.dataDir, DATABASE_FILE_NAME);
  if (!existsSync(source)) {
    return refuse(
      `No hay base de datos en ${source}: usa el mismo DATA_DIR que el servidor (o DATABASE_URL si usa PostgreSQL).`,
    );
  }
  const connection = new SQLite(source, { fileMustExist: true });
  try {
    connection.pragma(`busy_timeout = ${Math.trunc(location.busyTimeoutMs ?? 500)}`);
    await connection.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    connection.close();
  }
  // The copy stands alone: no WAL beside it, a plain rollback journal until the server opens it.
  const copy = new SQLite(partial, { fileMustExist: true });
  copy.pragma("journal_mode = DELETE");
  const check = copy.pragma("quick_check", { simple: true });
  if (check !== "ok") {
    copy.close();
    return refuse(`La copia no pasó la revisión de SQLite (${String(check)}); no se guardó.`);
  }
  return { ok: true, contents: await readContents(sqliteKysely(copy), "sqlite") };
}

async function dumpPostgres(
  databaseUrl: string,
  partial: string,
): Promise<{ ok: true; contents: BackupContents } | { ok: false; message: string }> {
  const environment = postgresClientEnvironment(databaseUrl);
  const db = postgresKysely(databaseUrl);
  try {
    return await db.connection().execute(async (connection) => {
      // The snapshot pg_dump reads is this transaction's: what is counted here is what it saves.
      await sql`begin transaction isolation level repeatable read, read only`.execute(connection);
      try {
        const { rows } = await sql<{
          snapshot: string;
        }>`select pg_export_snapshot() as snapshot`.execute(connection);
        const contents = await readContents(connection, "postgres");
        const dumped = await runPostgresTool(
          "pg_dump",
          [
            "--format=custom",
            "--no-password",
            `--snapshot=${rows[0]!.snapshot}`,
            `--file=${partial}`,
          ],
          environment,
        );
        if (!dumped.ok) return refuse(toolRefusal("pg_dump", "hacer el respaldo", dumped));
        return { ok: true as const, contents };
      } finally {
        await sql`commit`.execute(connection);
      }
    });
  } finally {
    await db.destroy();
  }
}

/**
 * Restores the backup `file` into the database at `location`, which must be empty: SQLite, no
 * database file in DATA_DIR yet; PostgreSQL, a database without tables. The server migrates an
 * older backup at its start; a backup of a newer version (migrations this one does not know) is
 * refused.
 */
export async function restoreBackup(
  location: DatabaseLocation,
  file: string,
): Promise<RestoreOutcome> {
  if (!existsSync(file)) return refuse(`No existe el respaldo ${file}.`);
  const engine = backupEngine(file);
  const wanted: Engine = location.databaseUrl ? "postgres" : "sqlite";
  if (engine === null) {
    return refuse(
      `${file} no es un respaldo de la tienda (ni una base SQLite ni un archivo de pg_dump -Fc).`,
    );
  }
  if (engine !== wanted) {
    return refuse(
      engine === "sqlite"
        ? `${file} es un respaldo de SQLite y DATABASE_URL apunta a PostgreSQL: restáuralo sin DATABASE_URL, en un DATA_DIR vacío.`
        : `${file} es un respaldo de PostgreSQL y no hay DATABASE_URL: apúntala a una base de datos vacía.`,
    );
  }
  return location.databaseUrl
    ? restorePostgres(location.databaseUrl, file)
    : restoreSqlite(location.dataDir, file);
}

/** Which engine's backup a file is, by its first bytes; null for neither. */
export function backupEngine(file: string): Engine | null {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const descriptor = openSync(file, "r");
  try {
    readSync(descriptor, head, 0, head.length, 0);
  } finally {
    closeSync(descriptor);
  }
  const text = head.toString("latin1");
  if (text === SQLITE_MAGIC) return "sqlite";
  if (text.startsWith(PG_CUSTOM_MAGIC)) return "postgres";
  return null;
}

async function restoreSqlite(dataDir: string, file: string): Promise<RestoreOutcome> {
  const target = path.join(dataDir, DATABASE_FILE_NAME);
  const inUse = [target, `${target}-wal`].find((candidate) => existsSync(candidate));
  if (inUse) {
    return refuse(
      `Ya hay una base de datos en ${inUse}: restaurar no la sobrescribe; usa un DATA_DIR sin base de datos.`,
    );
  }
  let contents: BackupContents;
  try {
    const backup = new SQLite(file, { readonly: true, fileMustExist: true });
    const check = backup.pragma("quick_check", { simple: true });
    if (check !== "ok") {
      backup.close();
      return refuse(`${file} no pasó la revisión de SQLite (${String(check)}): no se restauró.`);
    }
    contents = await readContents(sqliteKysely(backup), "sqlite");
  } catch (error) {
    return refuse(`${file} no se puede leer como base SQLite: ${(error as Error).message}`);
  }
  const unknown = unknownMigrations(contents);
  if (unknown) return refuse(unknown);
  await mkdir(dataDir, { recursive: true });
  const partial = path.join(dataDir, `.${DATABASE_FILE_NAME}.${randomBytes(4).toString("hex")}`);
  try {
    copyFileSync(file, partial, fsConstants.COPYFILE_EXCL);
    try {
      linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        return refuse(
          `Ya hay una base de datos en ${target}: restaurar no la sobrescribe; usa un DATA_DIR sin base de datos.`,
        );
      }
      throw error;
    }
  } finally {
    rmSync(partial, { force: true });
  }
  return { ok: true, file, restoredInto: target, contents };
}

async function restorePostgres(databaseUrl: string, file: string): Promise<RestoreOutcome> {
  const name = postgresDatabaseName(databaseUrl);
  const environment = postgresClientEnvironment(databaseUrl);
  const db = postgresKysely(databaseUrl);
  try {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    if (tables.length > 0) {
      return refuse(
        `La base de datos ${name} ya tiene ${tables.length} ${tables.length === 1 ? "tabla" : "tablas"}: restaurar no la sobrescribe; crea una vacía (CREATE DATABASE) y apunta DATABASE_URL a ella.`,
      );
    }
    // Its schema version first, read from the file without touching the database.
    const listed = await runPostgresTool(
      "pg_restore",
      ["--data-only", "--table=kysely_migration", "--file=-", file],
      environment,
    );
    if (!listed.ok) return refuse(toolRefusal("pg_restore", "leer el respaldo", listed));
    const unknown = unknownMigrations({
      engine: "postgres",
      rowsByTable: {},
      migrations: copiedRows(listed.stdout, "kysely_migration").map((row) => row[0]!),
    });
    if (unknown) return refuse(unknown);
    // One transaction: a restore that fails leaves the database as empty as it was.
    const restored = await runPostgresTool(
      "pg_restore",
      [
        "--exit-on-error",
        "--single-transaction",
        "--no-owner",
        "--no-privileges",
        "--no-password",
        `--dbname=${environment.PGDATABASE ?? ""}`,
        file,
      ],
      environment,
    );
    if (!restored.ok) return refuse(toolRefusal("pg_restore", "restaurar el respaldo", restored));
    return {
      ok: true,
      file,
      restoredInto: name,
      contents: await readContents(db, "postgres"),
    };
  } finally {
    await db.destroy();
  }
}

/**
 * The rows of `table` in the plain SQL pg_restore writes for a custom-format dump (its COPY
 * block), each as its columns' text: how a backup's rows are read without restoring it.
 */
export function copiedRows(script: string, table: string): string[][] {
  const lines = script.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^COPY (\\w+\\.)?"?${table}"? `).test(line));
  if (start === -1) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "\\.") break;
    rows.push(line.split("\t"));
  }
  return rows;
}

function unknownMigrations(contents: BackupContents): string | null {
  if (contents.migrations.length === 0) {
    return "El archivo no es un respaldo de la tienda: no tiene su tabla de migraciones (kysely_migration).";
  }
  const unknown = contents.migrations.filter((name) => !Object.hasOwn(migrations, name));
  if (unknown.length === 0) return null;
  return `El respaldo es de una versión más nueva de la tienda (migraciones que esta no conoce: ${unknown.join(", ")}): restáuralo con esa versión.`;
}

function toolRefusal(program: string, what: string, outcome: Extract<ToolOutcome, { ok: false }>) {
  if (outcome.missing) {
    return `No se encontró ${program}: instala el cliente de PostgreSQL (en Debian, apt-get install postgresql-client), de la versión del servidor o más nueva.`;
  }
  return `${program} no pudo ${what}: ${outcome.message}`;
}

/** Every table's rows (Kysely's own bookkeeping left out) and the migrations applied. */
async function readContents(db: Kysely<unknown>, engine: Engine): Promise<BackupContents> {
  try {
    const tables = await db.introspection.getTables();
    const rowsByTable: Record<string, number> = {};
    for (const table of tables.filter((each) => !each.isView).sort(byName)) {
      const { rows } = await sql<{
        count: number | string;
      }>`select count(*) as count from ${sql.table(table.name)}`.execute(db);
      rowsByTable[table.name] = Number(rows[0]?.count ?? 0);
    }
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`
      .execute(db)
      .catch(() => ({ rows: [] as { name: string }[] }));
    return { engine, rowsByTable, migrations: applied.rows.map((row) => row.name) };
  } finally {
    // A SQLite copy is closed here; a PostgreSQL connection is its caller's.
    if (engine === "sqlite") await db.destroy();
  }
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

function sqliteKysely(connection: SQLite.Database): Kysely<unknown> {
  return new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
}

function postgresKysely(databaseUrl: string): Kysely<unknown> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: "ops" });
  // An idle connection the server drops must not end the command with an unheard error.
  pool.on("error", () => undefined);
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}
