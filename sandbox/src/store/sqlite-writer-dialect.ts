import { CompiledQuery, SqliteAdapter, SqliteDialect, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';

// Kysely's SQLite driver begins with a deferred BEGIN: the write lock is taken at the first write,
// and when another process wrote since this transaction's first read, that upgrade fails at once
// (SQLITE_BUSY_SNAPSHOT, no busy wait). BEGIN IMMEDIATE takes the write lock first (waiting up to
// the busy timeout), so a read-then-write request of one process never fails because of another.
class ImmediateDriver implements Driver {
  readonly #inner: Driver;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return this.#inner.acquireConnection();
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

// SQLite's DDL is transactional; Kysely's adapter says otherwise to stay on the safe side. Saying
// so here makes the Migrator run in one transaction — BEGIN IMMEDIATE, above — so that two
// processes migrating one file at once take turns instead of both running the migrations.
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite dialect for the one connection that writes: its transactions begin with
 * `BEGIN IMMEDIATE`, and migrations run in a transaction.
 *
 * @example
 * ```ts
 * const writer = new Kysely<ShowcaseTables>({ dialect: new SqliteWriterDialect({ database: openSqliteConnection(file) }) });
 * ```
 */
export class SqliteWriterDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new ImmediateDriver(super.createDriver());
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlAdapter();
  }
}
