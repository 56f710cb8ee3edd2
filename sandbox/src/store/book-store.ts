import type { Kysely } from 'kysely';
import type { ShowcaseTables } from './tables.ts';

/** A record of the books collection: `id` is assigned by the database, `name` comes from the client. */
export interface Book {
  id: string;
  name: string;
}

/** An author of the nested example (`/authors/<author_id>/books/<id>`). */
export interface Author {
  id: string;
  name: string;
}

const MAX_ID = 2 ** 31 - 1;

// Ids come from URLs. PostgreSQL refuses a text that is not an integer (an error, not "no row"),
// so anything that cannot be a row's id is no row, on both databases alike.
function rowId(id: string): number | undefined {
  if (!/^\d{1,10}$/.test(id)) return undefined;
  const value = Number(id);
  return value >= 1 && value <= MAX_ID ? value : undefined;
}

/**
 * True when `id` can be the id of a row (an integer from 1 to 2^31 - 1, as a URL carries it);
 * checked without the database.
 *
 * @example
 * ```ts
 * isRowId('12'); // true
 * isRowId('index_post'); // false
 * ```
 */
export function isRowId(id: string): boolean {
  return rowId(id) !== undefined;
}

function record(row: { id: number; name: string }): { id: string; name: string } {
  return { id: String(row.id), name: row.name };
}

/**
 * The showcase's books and authors, queried with Kysely on whatever it is given: a request's
 * transaction (what the handlers use: `library.books()`), or a database. Ids are strings on the
 * way out (`'1'`, `'2'`, …), as URLs carry them; an id that cannot exist is simply not found.
 *
 * @example
 * ```ts
 * const books = new BookStore(trx);
 * await books.create('Dune'); // { id: '1', name: 'Dune' }
 * ```
 */
export class BookStore {
  readonly #db: Kysely<ShowcaseTables>;
  readonly #created: ((book: Book) => void) | undefined;

  /**
   * @param db a request's transaction, or the database.
   * @param created told of each book `create` adds (the library keeps them until the transaction
   *   commits, and only then announces them: a rolled-back book is never announced).
   */
  constructor(db: Kysely<ShowcaseTables>, created?: (book: Book) => void) {
    this.#db = db;
    this.#created = created;
  }

  /** Every book, or those of one author, in creation order. */
  async list(authorId?: string): Promise<Book[]> {
    let query = this.#db.selectFrom('books').select(['id', 'name']).orderBy('id');
    if (authorId !== undefined) {
      const author = rowId(authorId);
      if (author === undefined) return [];
      query = query.where('author_id', '=', author);
    }
    return (await query.execute()).map(record);
  }

  /** One book (of one author when `authorId` is given), or `undefined`. */
  async get(id: string, authorId?: string): Promise<Book | undefined> {
    const key = rowId(id);
    if (key === undefined) return undefined;
    const row = await this.#db.selectFrom('books').select(['id', 'name', 'author_id']).where('id', '=', key).executeTakeFirst();
    if (row === undefined || (authorId !== undefined && String(row.author_id) !== authorId)) return undefined;
    return record(row);
  }

  /** Adds a book and returns it with its new id; an unknown author is refused by the database (foreign key). */
  async create(name: string, authorId?: string): Promise<Book> {
    const author = authorId === undefined ? null : (rowId(authorId) ?? -1);
    const row = await this.#db.insertInto('books').values({ name, author_id: author }).returning(['id', 'name']).executeTakeFirstOrThrow();
    const book = record(row);
    this.#created?.(book);
    return book;
  }

  /** The books whose id is above `id` (a number: 0 for all), in id order, at most `limit` of them. */
  async after(id: number, limit = 100): Promise<Book[]> {
    return (await this.#db.selectFrom('books').select(['id', 'name']).where('id', '>', id).orderBy('id').limit(limit).execute()).map(record);
  }

  /** The highest id of a book (0 when there is none). */
  async lastId(): Promise<number> {
    const row = await this.#db.selectFrom('books').select((eb) => eb.fn.max('id').as('last')).executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Renames a book; `undefined` when the id is unknown. */
  async update(id: string, name: string): Promise<Book | undefined> {
    const key = rowId(id);
    if (key === undefined) return undefined;
    const row = await this.#db.updateTable('books').set({ name }).where('id', '=', key).returning(['id', 'name']).executeTakeFirst();
    return row === undefined ? undefined : record(row);
  }

  /** Removes a book; false when the id is unknown. */
  async remove(id: string): Promise<boolean> {
    const key = rowId(id);
    if (key === undefined) return false;
    const result = await this.#db.deleteFrom('books').where('id', '=', key).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Marks a book as checked out; `undefined` when the id is unknown. */
  async checkout(id: string): Promise<(Book & { checked_out: boolean }) | undefined> {
    const key = rowId(id);
    if (key === undefined) return undefined;
    const row = await this.#db.updateTable('books').set({ checked_out: 1 }).where('id', '=', key).returning(['id', 'name']).executeTakeFirst();
    return row === undefined ? undefined : { ...record(row), checked_out: true };
  }

  /** Every author. */
  async authorList(): Promise<Author[]> {
    return (await this.#db.selectFrom('authors').select(['id', 'name']).orderBy('id').execute()).map(record);
  }

  /** One author, or `undefined`. */
  async author(id: string): Promise<Author | undefined> {
    const key = rowId(id);
    if (key === undefined) return undefined;
    const row = await this.#db.selectFrom('authors').select(['id', 'name']).where('id', '=', key).executeTakeFirst();
    return row === undefined ? undefined : record(row);
  }
}
