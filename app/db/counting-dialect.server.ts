import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from "kysely";

/**
 * A Kysely dialect that counts, around any other dialect, the connections in use and the queries
 * waiting for one, and hands every query error (and every failure to get a connection) to
 * `onError` before it propagates: the one place where the database's timeouts can be counted
 * (decision 0110) whatever the engine and whichever capability ran the query. It adds a counter
 * update per connection and a rejection handler per query, nothing else.
 */
export interface PoolCounters {
  inUse: number;
  waiting: number;
}

export class CountingDialect implements Dialect {
  readonly counters: PoolCounters = { inUse: 0, waiting: 0 };

  constructor(
    private readonly inner: Dialect,
    private readonly onError: (error: unknown) => void,
  ) {}

  createDriver(): Driver {
    return new CountingDriver(this.inner.createDriver(), this.counters, this.onError);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

/** The driver's own connection behind the one handed to Kysely. */
class CountingConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly onError: (error: unknown) => void,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    let result: Promise<QueryResult<R>>;
    try {
      // SQLite's driver runs the statement before it returns, and throws then.
      result = this.inner.executeQuery<R>(query);
    } catch (error) {
      this.onError(error);
      throw error;
    }
    return result.catch((error: unknown) => {
      this.onError(error);
      throw error;
    });
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

type SavepointCompiler = Parameters<NonNullable<Driver["savepoint"]>>[2];

class CountingDriver implements Driver {
  /** One wrapper per connection of the driver's (SQLite has one, a pool a few). */
  readonly #wrappers = new WeakMap<DatabaseConnection, CountingConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly counters: PoolCounters,
    private readonly onError: (error: unknown) => void,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.counters.waiting++;
    let connection: DatabaseConnection;
    try {
      connection = await this.inner.acquireConnection();
    } catch (error) {
      this.onError(error);
      throw error;
    } finally {
      this.counters.waiting--;
    }
    this.counters.inUse++;
    let wrapper = this.#wrappers.get(connection);
    if (!wrapper) {
      wrapper = new CountingConnection(connection, this.onError);
      this.#wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  // Transactions run their statements through the wrapper, so that a lock wait at BEGIN counts.
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler) {
    await this.inner.savepoint!(connection, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: SavepointCompiler,
  ) {
    await this.inner.rollbackToSavepoint!(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler) {
    await this.inner.releaseSavepoint!(connection, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.counters.inUse--;
    // The driver's own connection: releasing it back to a pool needs what only it carries.
    await this.inner.releaseConnection((connection as CountingConnection).inner ?? connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
