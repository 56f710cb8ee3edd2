import type { Connection } from './open-database.ts';
import { openDatabase } from './open-database.ts';

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

interface BookRow {
  id: number;
  name: string;
}

/**
 * The showcase's books and authors, in SQLite. Ids are strings on the way out (`'1'`, `'2'`, …),
 * as URLs carry them. Every statement is prepared once; each request's work runs inside the
 * transaction its `TransactionHook` opened (see `Library`).
 *
 * @example
 * ```ts
 * const store = new BookStore(openDatabase(':memory:'));
 * store.create('Dune'); // { id: '1', name: 'Dune' }
 * ```
 */
export class BookStore {
  readonly #sql;

  constructor(db: Connection = openDatabase(':memory:')) {
    this.#sql = {
      list: db.prepare<[], BookRow>('SELECT id, name FROM books ORDER BY id'),
      listOf: db.prepare<[string], BookRow>('SELECT id, name FROM books WHERE author_id = ? ORDER BY id'),
      get: db.prepare<[string], BookRow & { author_id: number | null }>('SELECT id, name, author_id FROM books WHERE id = ?'),
      insert: db.prepare<[string, string | null], BookRow>('INSERT INTO books (name, author_id) VALUES (?, ?) RETURNING id, name'),
      rename: db.prepare<[string, string], BookRow>('UPDATE books SET name = ? WHERE id = ? RETURNING id, name'),
      remove: db.prepare<[string]>('DELETE FROM books WHERE id = ?'),
      checkout: db.prepare<[string], BookRow>('UPDATE books SET checked_out = 1 WHERE id = ? RETURNING id, name'),
      authors: db.prepare<[], BookRow>('SELECT id, name FROM authors ORDER BY id'),
      author: db.prepare<[string], BookRow>('SELECT id, name FROM authors WHERE id = ?'),
    };
  }

  /** Every book, or those of one author, in creation order. */
  list(authorId?: string): Book[] {
    const rows = authorId === undefined ? this.#sql.list.all() : this.#sql.listOf.all(authorId);
    return rows.map(record);
  }

  /** One book (of one author when `authorId` is given), or `undefined`. */
  get(id: string, authorId?: string): Book | undefined {
    const row = this.#sql.get.get(id);
    if (row === undefined || (authorId !== undefined && String(row.author_id) !== authorId)) return undefined;
    return record(row);
  }

  /** Adds a book and returns it with its new id. */
  create(name: string, authorId?: string): Book {
    return record(this.#sql.insert.get(name, authorId ?? null)!);
  }

  /** Renames a book; `undefined` when the id is unknown. */
  update(id: string, name: string): Book | undefined {
    const row = this.#sql.rename.get(name, id);
    return row === undefined ? undefined : record(row);
  }

  /** Removes a book; false when the id is unknown. */
  remove(id: string): boolean {
    return this.#sql.remove.run(id).changes > 0;
  }

  /** Marks a book as checked out; `undefined` when the id is unknown. */
  checkout(id: string): (Book & { checked_out: boolean }) | undefined {
    const row = this.#sql.checkout.get(id);
    return row === undefined ? undefined : { ...record(row), checked_out: true };
  }

  /** Every author. */
  authorList(): Author[] {
    return this.#sql.authors.all().map(record);
  }

  /** One author, or `undefined`. */
  author(id: string): Author | undefined {
    const row = this.#sql.author.get(id);
    return row === undefined ? undefined : record(row);
  }
}

function record(row: BookRow): { id: string; name: string } {
  return { id: String(row.id), name: row.name };
}
