import type Database from 'better-sqlite3';
import { E_TIMEOUT, Mutex, withTimeout, type MutexInterface } from 'async-mutex';
import { CompiledQuery, SqliteAdapter, SqliteDialect, type DatabaseConnection, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';
import { currentExchange } from '@hickory/core/kit';
import { databaseBusy, whenNotBusy } from './sqlite-busy.ts';

/** What {@link SqliteRequestDialect} takes. */
export interface SqliteRequestDialectConfig {
  /** The better-sqlite3 connection: its `busy_timeout` is set to 0 (the waits happen here, on timers). */
  readonly database: Database.Database;
  /**
   * How long a query or a transaction waits, in all, for the connection (held by another request of
   * this process) and for SQLite's write lock (held by another process); past it, a 503 with
   * `Retry-After: 1`. Default 5000 ms.
   */
  readonly waitMs?: number;
}

/** The message of the error a request gets when it asks for the connection its own transaction holds. */
export const SELF_WAIT_MESSAGE =
  'This request already holds the SQLite connection in its transaction, so a query on the Kysely instance itself would wait for that transaction to end: use tx.transaction() inside a request that holds the transaction.';

/** The message of the error a request's late code gets once the request was answered without it. */
export const CUT_OFF_MESSAGE =
  'This request was already answered (503 past handler_timeout) while its code still ran: its later queries are refused, so that nothing it does after its answer reaches the data.';

// Whether the current request was cut off: answered 503 past handler_timeout while its handler
// still runs. The one place that asks (the kernel's way to tell may change).
function cutOff(): boolean {
  return currentExchange()?.deadline?.expired === true;
}

// Who holds the one connection: the request (its Request object) whose code took it, or `outside`
// for code that runs outside every request (migrations, a script).
const outside = Symbol('outside any request');
type Holder = object | typeof outside;

function currentHolder(): Holder {
  return currentExchange()?.request ?? outside;
}

// The connection Kysely's SQLite driver made, with every statement retried on timers while
// another process holds the lock (the connection's busy_timeout is 0: SQLite's own wait would
// block the event loop).
class NonBlockingConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #waitMs: number;

  constructor(inner: DatabaseConnection, waitMs: number) {
    this.#inner = inner;
    this.#waitMs = waitMs;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return whenNotBusy(() => this.#inner.executeQuery<R>(query), Date.now() + this.#waitMs);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize);
  }
}

class RequestAwareDriver implements Driver {
  readonly #inner: Driver;
  readonly #sqlite: Database.Database;
  readonly #waitMs: number;
  // A bounded queue for the one connection: Kysely's own waits without end.
  readonly #turn: MutexInterface;
  #connection: NonBlockingConnection | undefined;
  #innerConnection: DatabaseConnection | undefined;
  #holder: Holder | undefined;
  #giveBack: (() => void) | undefined;
  // When the current holder's wait runs out: its BEGIN IMMEDIATE waits only for what is left.
  #deadline = 0;

  constructor(inner: Driver, sqlite: Database.Database, waitMs: number) {
    this.#inner = inner;
    this.#sqlite = sqlite;
    this.#waitMs = waitMs;
    this.#turn = withTimeout(new Mutex(), waitMs);
  }

  async init(): Promise<void> {
    this.#sqlite.pragma('busy_timeout = 0');
    await this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Its transaction was rolled back; a query now would be a write of its own (autocommit).
    if (cutOff()) throw new Error(CUT_OFF_MESSAGE);
    const holder = currentHolder();
    // The request's own transaction holds the connection until the request ends: waiting for it
    // would wait for ever (or until handler_timeout), so say what to do instead, at once. A hold
    // outside a transaction (a query, a `db.connection()` callback) ends by itself: that one waits.
    if (holder !== outside && holder === this.#holder && this.#sqlite.inTransaction) throw new Error(SELF_WAIT_MESSAGE);
    const deadline = Date.now() + this.#waitMs;
    let giveBack: () => void;
    try {
      giveBack = await this.#turn.acquire();
    } catch (error) {
      if (error === E_TIMEOUT) databaseBusy();
      throw error;
    }
    try {
      // A ROLLBACK that failed (Kysely gives the connection back even then) left a transaction
      // open: it is nobody's now.
      if (this.#sqlite.inTransaction) this.#sqlite.exec('ROLLBACK');
      const inner = await this.#inner.acquireConnection();
      this.#innerConnection = inner;
      this.#connection ??= new NonBlockingConnection(inner, this.#waitMs);
    } catch (error) {
      giveBack();
      throw error;
    }
    this.#holder = holder;
    this.#giveBack = giveBack;
    this.#deadline = deadline;
    return this.#connection;
  }

  async beginTransaction(_connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // A deferred BEGIN takes the write lock at the first write, and when another process wrote
    // since this transaction's first read, that fails at once (SQLITE_BUSY_SNAPSHOT, a 500).
    // BEGIN IMMEDIATE takes it first; a read-only transaction takes no lock at all.
    // It waits only for what is left of the wait that acquireConnection began.
    const begin = CompiledQuery.raw(settings.accessMode === 'read only' ? 'begin' : 'begin immediate');
    const inner = this.#innerConnection!;
    await whenNotBusy(() => inner.executeQuery(begin), this.#deadline);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    const giveBack = this.#giveBack;
    this.#holder = undefined;
    this.#giveBack = undefined;
    try {
      if (this.#innerConnection !== undefined) await this.#inner.releaseConnection(this.#innerConnection);
    } finally {
      giveBack?.();
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#inner.savepoint!(connection, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#inner.rollbackToSavepoint!(connection, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.#inner.releaseSavepoint!(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

// SQLite's DDL is transactional; Kysely's adapter says otherwise to stay on the safe side. Saying
// so makes the Migrator run in one transaction (BEGIN IMMEDIATE), so that two processes migrating
// one file at once take turns instead of both running the migrations.
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite dialect for a request-per-transaction app (copy this file and `sqlite-busy.ts`):
 *
 * - a query on the Kysely instance made by a request whose own transaction holds the connection
 *   throws at once ({@link SELF_WAIT_MESSAGE}: use `tx.transaction()`), instead of waiting for itself;
 * - so does one made by a request already answered 503 past `handler_timeout` ({@link CUT_OFF_MESSAGE}):
 *   its late code reaches no data;
 * - other requests wait their turn for the connection at most `waitMs`, then 503 with `Retry-After`;
 * - transactions begin with `BEGIN IMMEDIATE` (the write lock up front; `setAccessMode('read only')`
 *   takes none), so a read-then-write transaction never fails because another process wrote;
 * - another process's lock (a second `hickory serve` worker) is waited for on timers, never inside
 *   SQLite (`busy_timeout` 0): the event loop keeps serving; past `waitMs`, a 503, never a 500;
 * - migrations run in one transaction.
 *
 * @example
 * ```ts
 * const sqlite = new Database('data/app.sqlite');
 * sqlite.pragma('journal_mode = WAL');
 * const db = new Kysely<Tables>({ dialect: new SqliteRequestDialect({ database: sqlite, waitMs: 2000 }) });
 * ```
 */
export class SqliteRequestDialect extends SqliteDialect {
  readonly #sqlite: Database.Database;
  readonly #waitMs: number;

  constructor({ database, waitMs = 5000 }: SqliteRequestDialectConfig) {
    super({ database });
    this.#sqlite = database;
    this.#waitMs = waitMs;
  }

  override createDriver(): Driver {
    return new RequestAwareDriver(super.createDriver(), this.#sqlite, this.#waitMs);
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlAdapter();
  }
}
