import { Mutex } from 'async-mutex';
import type { TransactionFunctions } from '@hickory/hooks';
import { BookStore } from './book-store.ts';
import { databaseFile, openDatabase, type Connection } from './open-database.ts';

/**
 * The showcase's data: one SQLite connection, its {@link BookStore}, and the functions a
 * `TransactionHook` calls. better-sqlite3 is synchronous and the connection is shared by every
 * request of the process, so transactions take turns: `start()`/`start_ro()` wait (without
 * blocking the event loop) until the previous request's transaction was cleared. A request that
 * waits for its body or a template holds its turn meanwhile; a deployment with real traffic uses
 * a database server and a connection per request (a pool) instead.
 *
 * @example
 * ```ts
 * const library = new Library(':memory:');
 * createApp({ root: new RootController(library), hooks: [new TransactionHook(library.transactions)] });
 * ```
 */
export class Library {
  readonly db: Connection;
  readonly books: BookStore;
  readonly #turn = new Mutex();
  #release: (() => void) | undefined;

  constructor(file: string = databaseFile()) {
    this.db = openDatabase(file);
    this.books = new BookStore(this.db);
  }

  /** What `new TransactionHook(...)` needs, bound to this library. */
  readonly transactions: TransactionFunctions = {
    start: () => this.#begin('BEGIN IMMEDIATE'),
    // Deferred: the snapshot is taken at the first read, and nothing is locked for writing.
    start_ro: () => this.#begin('BEGIN'),
    commit: () => this.db.exec('COMMIT'),
    rollback: () => this.db.exec('ROLLBACK'),
    clear: () => {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      const release = this.#release;
      this.#release = undefined;
      release?.();
    },
  };

  // A TransactionHook clears before it begins again, so each begin waits for its own turn.
  async #begin(statement: string): Promise<void> {
    const release = await this.#turn.acquire();
    this.#release = release;
    try {
      this.db.exec(statement);
    } catch (error) {
      this.#release = undefined;
      release();
      throw error;
    }
  }

  /** Closes the connection (tests; `npm start` keeps it for the life of the process). */
  close(): void {
    this.db.close();
  }
}

let shared: Library | undefined;

/**
 * The library `npm start` serves: opened on first use, on {@link databaseFile}, once per process.
 *
 * @example
 * ```ts
 * showcaseLibrary().books.list();
 * ```
 */
export function showcaseLibrary(): Library {
  return (shared ??= new Library());
}

/**
 * {@link Library.transactions} of {@link showcaseLibrary}, opened only when a request first
 * needs it (importing the configuration file opens nothing).
 *
 * @example
 * ```ts
 * export default { app: { hooks: [new TransactionHook(showcaseTransactions)] } };
 * ```
 */
export const showcaseTransactions: TransactionFunctions = {
  start: () => showcaseLibrary().transactions.start(),
  start_ro: () => showcaseLibrary().transactions.start_ro(),
  commit: () => showcaseLibrary().transactions.commit(),
  rollback: () => showcaseLibrary().transactions.rollback(),
  clear: () => showcaseLibrary().transactions.clear(),
};
