import { randomUUID } from 'node:crypto';
import { abort, redirect, request } from '@hickory/core';
import { expose, renderingFor, when } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { BookStore, type Author, type Book } from '../store/book-store.ts';

export { BookStore, type Author, type Book } from '../store/book-store.ts';

// `name` comes from a form, a query or JSON: anything but one non-empty string is a 400.
function requireName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') abort(400, 'A non-empty "name" is required.');
  return name as string;
}

// ---- The generic style (recommended): generic methods plus when(), an item through _lookup ----

/**
 * `/<id>/` of the generic style: built by the collection's `_lookup` from the id, it aborts with
 * 404 when the id is unknown. GET shows the book, PUT renames it, DELETE removes it (`{}`).
 *
 * @example
 * ```ts
 * new GenericBookController(store, '1'); // throws a 404 HTTPError when book 1 does not exist
 * ```
 */
export class GenericBookController {
  // #private, as every object a controller keeps for itself: routing follows public fields, and
  // TypeScript's `private` is gone at run time (`private store` would make /store/<id>/store/ a path).
  readonly #store: BookStore;
  readonly #book: Book;

  constructor(store: BookStore, id: string) {
    this.#store = store;
    this.#book = store.get(id) ?? abort(404, `No book with id ${JSON.stringify(id)}.`);
  }

  @expose({ generic: true, template: 'json' })
  index(): Book {
    return this.#book;
  }

  @when('index', { method: 'PUT', template: 'json' })
  index_put(name: string): Book {
    return this.#store.update(this.#book.id, requireName(name)) ?? abort(404);
  }

  @when('index', { method: 'DELETE', template: 'json' })
  index_delete(): Record<string, never> {
    if (!this.#store.remove(this.#book.id)) abort(404);
    return {};
  }
}

/**
 * The generic-style collection (spec section D): GET `/` lists the books, POST `/` creates one
 * (`name` required, else 400); `/<id>/` goes to a {@link GenericBookController} through `_lookup`.
 *
 * @example
 * ```ts
 * createKernel({ root: new GenericBooksController() }).use(dispatchPlugin);
 * // POST / name=Dune → {"id":"1","name":"Dune"}; GET /1/ → the same; DELETE /1/ → {}
 * ```
 */
export class GenericBooksController {
  readonly #store: BookStore;

  constructor(store: BookStore = new BookStore()) {
    this.#store = store;
  }

  @expose({ generic: true, template: 'json' })
  index(): Book[] {
    return this.#store.list();
  }

  @when('index', { method: 'POST', template: 'json' })
  index_post(name: string): Book {
    return this.#store.create(requireName(name));
  }

  _lookup(id: string, ...remainder: string[]): [GenericBookController, string[]] {
    return [new GenericBookController(this.#store, id), remainder];
  }
}

/**
 * The further generic example of the spec: GET `/` returns a JSON object; POST `/` with form
 * variables creates an item and returns it with its `uuid`.
 *
 * @example
 * ```ts
 * // POST / color=red → {"uuid":"…","fields":{"color":"red"}}
 * ```
 */
export class GenericItemsController {
  readonly #items = new Map<string, { uuid: string; fields: Record<string, unknown> }>();

  @expose({ generic: true, template: 'json' })
  index(): { items: Array<{ uuid: string; fields: Record<string, unknown> }> } {
    return { items: [...this.#items.values()] };
  }

  @when('index', { method: 'POST', template: 'json' })
  index_post(kwargs: Record<string, unknown>): { uuid: string; fields: Record<string, unknown> } {
    const item = { uuid: randomUUID(), fields: kwargs };
    this.#items.set(item.uuid, item);
    return item;
  }
}

// ---- The class style: RestController ----

/**
 * True when the `Accept` header weighs `text/html` above `application/json`, as browsers
 * submitting a form do; no header, `*\/*` or JSON first → false.
 *
 * @example
 * ```ts
 * prefersHtml('text/html,application/xhtml+xml,*\/*;q=0.8'); // true
 * prefersHtml('*\/*'); // false
 * ```
 */
export function prefersHtml(accept: string | undefined): boolean {
  return accept !== undefined && weightOf(accept, 'text', 'html') > weightOf(accept, 'application', 'json');
}

// The q of the most specific range matching type/subtype (0 when none does).
function weightOf(accept: string, type: string, subtype: string): number {
  let specificity = -1;
  let weight = 0;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const level = range === `${type}/${subtype}` ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (level <= specificity) continue;
    const q = params.find((p) => p.startsWith('q='));
    specificity = level;
    weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
  }
  return weight;
}

// A browser's form submission goes back to the list (303, so the browser follows with a GET);
// API clients get the JSON answer. The pages (`sandbox/templates/books/`) live at `/books/` too.
function answer<T>(value: T): T {
  if (prefersHtml(request.raw.headers.accept)) redirect('/books/', { code: 303 });
  return value;
}

/**
 * `/books/` of the class style (spec section E): `get_all`, `get_one`, `new`, `edit`, `post`,
 * `put`, `get_delete`, `delete`, and the custom action `checkout` (POST `/books/<id>/checkout`).
 * The list and a book are HTML pages by default and JSON for `Accept: application/json` or
 * `.json`; the forms post with `_method=put|delete`, as browser forms must, and a browser is
 * sent back to the list (303) while API clients get JSON.
 *
 * @example
 * ```ts
 * // GET /books/ (Accept: application/json) → [...]; POST /books/ name=Dune → {"id":"1","name":"Dune"}
 * // GET /books/1/edit → a form
 * ```
 */
export class BooksController extends RestController {
  static override _custom_actions = { checkout: ['POST'] };

  readonly #store: BookStore;

  constructor(store: BookStore = new BookStore()) {
    super();
    this.#store = store;
  }

  @expose('books/list.ejs')
  @expose('json')
  get_all(): Book[] | { books: Book[] } {
    const books = this.#store.list();
    return renderingFor()?.mediaType === 'application/json' ? books : { books };
  }

  @expose('books/show.ejs')
  @expose('json')
  get_one(id: string): Book {
    return this.find(id);
  }

  @expose('books/new.ejs')
  new(): Record<string, never> {
    return {};
  }

  @expose('books/edit.ejs')
  edit(id: string): Book {
    return this.find(id);
  }

  @expose('json')
  post(name: string): Book {
    const book = this.#store.create(requireName(name));
    // `npm start` shows it: the line carries the id the client got back in X-Request-Id.
    request.log.info({ bookId: book.id }, 'book added');
    return answer(book);
  }

  @expose('json')
  put(id: string, name: string): Book {
    this.find(id);
    return answer(this.#store.update(id, requireName(name))!);
  }

  @expose('books/delete.ejs')
  get_delete(id: string): Book {
    return this.find(id);
  }

  @expose('json')
  delete(id: string): Record<string, never> {
    if (!this.#store.remove(id)) abort(404, `No book with id ${JSON.stringify(id)}.`);
    return answer({});
  }

  @expose('json')
  checkout(id: string): Book & { checked_out: boolean } {
    return this.#store.checkout(id) ?? abort(404, `No book with id ${JSON.stringify(id)}.`);
  }

  private find(id: string): Book {
    return this.#store.get(id) ?? abort(404, `No book with id ${JSON.stringify(id)}.`);
  }
}

/**
 * `/authors/<author_id>/books/` and `/authors/<author_id>/books/<id>`: a child resource whose
 * `get` receives the parent id first (`get(author_id, id)`); POST creates a book of the author.
 *
 * @example
 * ```ts
 * // GET /authors/1/books/2 → get('1', '2')
 * ```
 */
export class AuthorBooksController extends RestController {
  readonly #store: BookStore;

  constructor(store: BookStore) {
    super();
    this.#store = store;
  }

  @expose('json')
  get(author_id: string, id: string | undefined = undefined): Book | Book[] {
    this.author(author_id);
    if (id === undefined) return this.#store.list(author_id);
    return this.#store.get(id, author_id) ?? abort(404, `Author ${JSON.stringify(author_id)} has no book ${JSON.stringify(id)}.`);
  }

  @expose('json')
  post(author_id: string, name: string): Book {
    this.author(author_id);
    return this.#store.create(requireName(name), author_id);
  }

  private author(id: string): Author {
    return this.#store.author(id) ?? abort(404, `No author with id ${JSON.stringify(id)}.`);
  }
}

/**
 * `/authors/`: the parent resource of {@link AuthorBooksController} (its `get_one(id)` takes one
 * id, so `/authors/<id>/books/…` hands that id to the books).
 *
 * @example
 * ```ts
 * // GET /authors/ → [{ id: '1', name: 'Frank Herbert' }, …]; GET /authors/1/books/ → that author's books
 * ```
 */
export class AuthorsController extends RestController {
  /** The nested resource: public, since `/authors/<id>/books/` is meant to be a URL. */
  readonly books: AuthorBooksController;
  readonly #store: BookStore;

  constructor(store: BookStore = new BookStore()) {
    super();
    this.#store = store;
    this.books = new AuthorBooksController(store);
  }

  @expose('json')
  get_all(): Author[] {
    return this.#store.authorList();
  }

  @expose('json')
  get_one(id: string): Author {
    return this.#store.author(id) ?? abort(404, `No author with id ${JSON.stringify(id)}.`);
  }
}

/**
 * The four book controllers of the sandbox over one shared store, to be mounted by a root:
 * `generic` (section D, at its own prefix), `items` (the `uuid` example), `books` and `authors`
 * (section E).
 *
 * @example
 * ```ts
 * const shelf = bookControllers();
 * class Root { books = shelf.books; authors = shelf.authors; generic = shelf.generic; items = shelf.items; }
 * ```
 */
export function bookControllers(store: BookStore = new BookStore()) {
  return {
    store,
    generic: new GenericBooksController(store),
    items: new GenericItemsController(),
    books: new BooksController(store),
    authors: new AuthorsController(store),
  };
}
