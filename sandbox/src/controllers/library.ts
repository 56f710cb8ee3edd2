import { abort, redirect } from '@hickory/core';
import { expose, when } from '@hickory/dispatch';
import type { Library } from '../store/library.ts';

/**
 * `/library/`: the books as the database holds them, and a form whose request writes a book and
 * then fails — the `TransactionHook` rolls the write back, and the page shows it was not kept.
 *
 * @example
 * ```ts
 * class Root { library = new LibraryController(new Library(':memory:')); }
 * ```
 */
export class LibraryController {
  readonly #library: Library;

  constructor(library: Library) {
    this.#library = library;
  }

  @expose({ generic: true, template: 'library/index.ejs' })
  async index() {
    const books = await this.#library.books().list();
    return { books, count: books.length, engine: this.#library.engine };
  }

  // A POST writes in a transaction: kept when the request succeeds (then a redirect, which commits).
  @when('index', { method: 'POST' })
  async add(name: string) {
    await this.#library.books().create(requireName(name));
    return redirect('/library/');
  }

  /** Writes the book, then fails: nothing of it is kept. */
  @expose()
  async write_then_fail(name: string) {
    const book = await this.#library.books().create(requireName(name));
    return abort(
      409,
      `Book ${book.id} ("${book.name}") was written, then this request failed: its transaction was rolled back, so /library/ does not list it.`,
    );
  }
}

function requireName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') abort(400, 'A non-empty "name" is required.');
  return (name as string).trim();
}
