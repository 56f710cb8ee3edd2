import type { Kysely } from 'kysely';
import { TransactionHook } from '@hickory/hooks';
import { BookStore } from './book-store.ts';
import { databaseLocation, databaseOptions, isPostgresUrl, openShowcaseDatabase, transactionFunctions, type DatabaseOptions } from './database.ts';
import type { ShowcaseDatabase } from './showcase-database.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/**
 * The showcase's data: its database (SQLite or PostgreSQL, see `databaseLocation`), the
 * `TransactionHook` that gives each request a transaction of its own, and the stores a handler
 * uses in that transaction. The database is opened (and migrated) on first use, or by `open()`.
 *
 * @example
 * ```ts
 * const library = new Library(':memory:');
 * createApp({ root: new RootController(library), hooks: [library.hook] });
 * // in a handler: await library.books().list()
 * ```
 */
export class Library {
  /** Where the data is: a `postgres://` URL, a SQLite file, or `:memory:`. */
  readonly location: string;
  /** The hook to configure (`hooks: [library.hook]`): one transaction per request. */
  readonly hook: TransactionHook<ShowcaseTransaction>;
  readonly #options: DatabaseOptions;
  #database: Promise<ShowcaseDatabase> | undefined;

  constructor(location: string = databaseLocation(), options: DatabaseOptions = {}) {
    this.location = location;
    this.#options = options;
    this.hook = new TransactionHook(transactionFunctions(() => this.open()));
  }

  /** The database's name, for pages: `PostgreSQL` or `SQLite`. */
  get engine(): 'PostgreSQL' | 'SQLite' {
    return isPostgresUrl(this.location) ? 'PostgreSQL' : 'SQLite';
  }

  /** Opens the database once (later calls share it); a failed opening is tried again next time. */
  open(): Promise<ShowcaseDatabase> {
    this.#database ??= openShowcaseDatabase(this.location, this.#options).catch((error: unknown) => {
      this.#database = undefined;
      throw error;
    });
    return this.#database;
  }

  /**
   * The database when it is open (or opening), never opening it: for work in the background (the
   * session store's sweep), which must not open again a database the app closed.
   */
  ifOpen(): Promise<ShowcaseDatabase> | undefined {
    return this.#database;
  }

  /** The books, in the current request's transaction (throws outside a request that has one). */
  books(): BookStore {
    return new BookStore(this.hook.transaction());
  }

  /** Runs `work` outside every request's transaction: for checks made before a request's begins. */
  async read<T>(work: (db: Kysely<ShowcaseTables>) => Promise<T>): Promise<T> {
    return (await this.open()).read(work);
  }

  /** Closes the database (it opens again on next use). */
  async close(): Promise<void> {
    const database = this.#database;
    this.#database = undefined;
    if (database !== undefined) await (await database.catch(() => undefined))?.close();
  }
}

let shared: Library | undefined;

/**
 * The library `npm start` serves, on {@link databaseLocation} with {@link databaseOptions}: created on first call (opening
 * nothing: the database opens when the app is ready), once per process. A new database starts with
 * a few books (`seed: true`), so the showcase's pages have something to show.
 *
 * @example
 * ```ts
 * export default { app: { hooks: [showcaseLibrary().hook] } };
 * ```
 */
export function showcaseLibrary(): Library {
  return (shared ??= new Library(databaseLocation(), { ...databaseOptions(), seed: true }));
}
