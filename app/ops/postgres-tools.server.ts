import { spawn } from "node:child_process";

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore) run by `npm run ops -- respaldo` and
 * `restaurar` (decision 0113), reached with the server's DATABASE_URL. The URL is never put on
 * their command line (any user of the machine reads a process's arguments) nor in a message:
 * its parts go to libpq's environment variables, the password as PGPASSWORD, in the child's
 * environment only.
 */

/**
 * Inherited variables that would change which server, database or user libpq reaches, or
 * answer for the URL's password: the URL alone says where to go. PGPASSFILE and the TLS files
 * (PGSSLROOTCERT…) stay, for a URL that leaves those to the machine.
 */
const WHERE_TO_VARIABLES = [
  "PGHOST",
  "PGHOSTADDR",
  "PGPORT",
  "PGDATABASE",
  "PGUSER",
  "PGPASSWORD",
  "PGSERVICE",
  "PGSERVICEFILE",
  "PGOPTIONS",
  "PGSSLMODE",
  "PGAPPNAME",
];

/** The URL's query parameters node-postgres reads that libpq has a variable for. */
const QUERY_VARIABLES: Record<string, string> = {
  host: "PGHOST",
  sslmode: "PGSSLMODE",
  sslrootcert: "PGSSLROOTCERT",
  sslcert: "PGSSLCERT",
  sslkey: "PGSSLKEY",
  application_name: "PGAPPNAME",
  options: "PGOPTIONS",
};

/**
 * The environment in which pg_dump and pg_restore reach the database of `databaseUrl` (a
 * `postgres://user:password@host:port/name?sslmode=…` URL, as node-postgres reads it): the
 * inherited environment without the variables that would say otherwise, plus PGHOST, PGPORT,
 * PGUSER, PGPASSWORD, PGDATABASE and the TLS settings of the URL. `ssl=true` (node-postgres'
 * spelling) asks for TLS as `sslmode=require` does.
 */
export function postgresClientEnvironment(
  databaseUrl: string,
  inherited: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const url = new URL(databaseUrl);
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && !WHERE_TO_VARIABLES.includes(name)) environment[name] = value;
  }
  const decoded = (text: string) => decodeURIComponent(text);
  // A socket directory may be written in the host part, percent-encoded (%2Fvar%2Frun%2F…).
  if (url.hostname) environment.PGHOST = decoded(url.hostname).replace(/^\[(.*)\]$/, "$1");
  if (url.port) environment.PGPORT = url.port;
  if (url.username) environment.PGUSER = decoded(url.username);
  if (url.password) environment.PGPASSWORD = decoded(url.password);
  const database = decoded(url.pathname.replace(/^\//, ""));
  if (database) environment.PGDATABASE = database;
  for (const [parameter, variable] of Object.entries(QUERY_VARIABLES)) {
    const value = url.searchParams.get(parameter);
    if (value) environment[variable] = value;
  }
  const ssl = url.searchParams.get("ssl");
  if (!environment.PGSSLMODE && (ssl === "true" || ssl === "1")) environment.PGSSLMODE = "require";
  environment.PGCONNECT_TIMEOUT ??= "10";
  return environment;
}

/** The database a URL names, for messages (never the URL itself, which may hold the password). */
export function postgresDatabaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, "")) || "(sin nombre)";
}

export type ToolOutcome =
  { ok: true; stdout: string } | { ok: false; missing: boolean; message: string };

/**
 * Runs one of PostgreSQL's client programs with `environment`, never asking for a password
 * (there is no terminal to type it: `--no-password` where the caller passes it). Answers its
 * standard output, or the last lines it wrote on its standard error when it failed.
 */
export function runPostgresTool(
  program: "pg_dump" | "pg_restore",
  args: readonly string[],
  environment: Record<string, string>,
): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      env: environment as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve({
        ok: false,
        missing: error.code === "ENOENT",
        message: error.message,
      }),
    );
    child.once("close", (code, signal) => {
      if (code === 0) {
        resolve({ ok: true, stdout: Buffer.concat(stdout).toString("utf8") });
        return;
      }
      const said = Buffer.concat(stderr)
        .toString("utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .slice(-3)
        .join(" | ");
      resolve({
        ok: false,
        missing: false,
        message: said || `terminó con ${signal ?? `código ${code}`}`,
      });
    });
  });
}
