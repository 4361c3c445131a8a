import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from "kysely";

/**
 * Kysely's SQLite dialect with every transaction begun `BEGIN IMMEDIATE` (decision 0075). With
 * several processes on one file (WEB_CONCURRENCY), a deferred transaction that reads and then
 * writes fails at once with SQLITE_BUSY when another process wrote in between: SQLite cannot
 * wait for a snapshot that has gone stale. Taking the write lock at BEGIN makes the transaction
 * wait for it (busy_timeout) instead, before it has read anything.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly immediateConfig: SqliteDialectConfig) {
    super(immediateConfig);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.immediateConfig);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
