// npm run migrate: the database migrations the server runs at start (and the rate limit table
// its processes share), without starting the server, for deploys that migrate first. It reads
// the database's settings alone (loadDatabaseConfig: SQLite under DATA_DIR, or PostgreSQL at
// DATABASE_URL, with the pool and timeouts; decision 0143), validated as the server validates
// them, so a migrate-first deploy needs no identity pool, payment or mail settings; and it logs
// like the server, one JSON line per migration applied. Running it again changes nothing; the server still migrates
// at start, so a deploy that skips this step works as before.
//
// Exit codes: 0 migrated (or nothing to do); 1 a bad configuration (one line on stderr); 2 the
// database refused (a failed migration, PostgreSQL unreachable).
//
// `npm run migrate` runs the build of this file, dist/migrate.js (`npm run build`, decision
// 0087); from the sources: `npx tsx scripts/migrate.ts`.
import { pino } from "pino";
import { ConfigError, loadDatabaseConfig, type DatabaseConfig } from "~/config.server";
import { prepareSharedStores } from "~/services.server";

let config: DatabaseConfig;
try {
  config = loadDatabaseConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = pino({ level: config.LOG_LEVEL, base: { task: "migrate" } });
const engine = config.DATABASE_URL ? "postgres" : "sqlite";
try {
  await prepareSharedStores(config, logger);
  logger.info({ engine }, "database migrated");
} catch (error) {
  logger.error({ err: error, engine }, "database not migrated");
  process.exitCode = 2;
}
