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
  readonly transactions = {
    start: () => this.#begin('BEGIN IMMEDIATE'),
    // Deferred: the snapshot is taken at the first read, and nothing is locked for writing.
    start_ro: () => this.#begin('BEGIN'),
    commit: (): void => void this.db.exec('COMMIT'),
    rollback: (): void => void this.db.exec('ROLLBACK'),
    // Never throws, and always gives the turn back: the hook calls it last, after the response is
    // decided, and a turn kept by a failed ROLLBACK (e.g. an unfinished `iterate()` keeps the
    // connection busy) would leave every later request waiting forever. A transaction still open
    // after a failed ROLLBACK makes the next BEGIN fail (that request's 500), not hang.
    clear: (): void => {
      const release = this.#release;
      this.#release = undefined;
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        // Nothing to do here: see above.
      } finally {
        release?.();
      }
    },
  } satisfies TransactionFunctions;

  // A TransactionHook clears before it begins again, so each begin waits for its own turn. A BEGIN
  // that fails (SQLITE_BUSY from another worker's write) keeps the turn all the same: the hook still
  // calls clear() for that request, and had the turn been given back here, another request could
  // have begun meanwhile and that clear() would roll back the other request's transaction.
  async #begin(statement: string): Promise<void> {
    this.#release = await this.#turn.acquire();
    this.db.exec(statement);
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
