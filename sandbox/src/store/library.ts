import type { Kysely } from 'kysely';
import { TransactionHook } from '@hickory/hooks';
import { BookEvents, type BookEventsOptions } from './book-events.ts';
import { BookStore, type Book } from './book-store.ts';
import { databaseLocation, databaseOptions, isPostgresUrl, openShowcaseDatabase, transactionFunctions, type DatabaseOptions } from './database.ts';
import type { ShowcaseDatabase } from './showcase-database.ts';
import type { ShowcaseTables, ShowcaseTransaction } from './tables.ts';

/**
 * The showcase's data: its database (SQLite or PostgreSQL, see `databaseLocation`), the
 * `TransactionHook` that gives each request a transaction of its own, and the stores a handler
 * uses in that transaction. The database is opened (and migrated) on first use, or by `open()`.
 * A book a transaction added is announced to the live pages (`events`) once that transaction has
 * committed, never when it rolled back.
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
  /** The books added, as the live pages hear of them (on every instance: see {@link BookEvents}). */
  readonly events: BookEvents;
  readonly #options: DatabaseOptions;
  #database: Promise<ShowcaseDatabase> | undefined;
  // The books each open transaction added: announced when it has committed, dropped otherwise.
  readonly #added = new WeakMap<ShowcaseTransaction, Book[]>();

  constructor(location: string = databaseLocation(), options: DatabaseOptions & { events?: BookEventsOptions } = {}) {
    const { events, ...database } = options;
    this.location = location;
    this.#options = database;
    this.events = new BookEvents(this, events);
    // The transaction's end (`clear`, after the commit and after the connection or the writer's
    // turn is given back, still before the response): a client told 2xx finds its book on the pages.
    this.hook = new TransactionHook(transactionFunctions(() => this.open(), (trx) => this.#ended(trx)));
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
    const trx = this.hook.transaction();
    return new BookStore(trx, (book) => {
      const added = this.#added.get(trx);
      if (added === undefined) this.#added.set(trx, [book]);
      else added.push(book);
    });
  }

  /** Runs `work` outside every request's transaction: for checks made before a request's begins. */
  async read<T>(work: (db: Kysely<ShowcaseTables>) => Promise<T>): Promise<T> {
    return (await this.open()).read(work);
  }

  /** Closes the database and the live pages' broadcast (both open again on next use). */
  async close(): Promise<void> {
    const database = this.#database;
    this.#database = undefined;
    await this.events.close();
    if (database !== undefined) await (await database.catch(() => undefined))?.close();
  }

  #ended(trx: ShowcaseTransaction): Promise<void> | undefined {
    const added = this.#added.get(trx);
    this.#added.delete(trx);
    return added !== undefined && trx.isCommitted ? this.events.added(added) : undefined;
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
