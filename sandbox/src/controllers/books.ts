import { randomUUID } from 'node:crypto';
import { abort, redirect, request } from '@hickory/core';
import { expose, renderingFor, when } from '@hickory/dispatch';
import { RestController } from '@hickory/rest';
import { isRowId, type Author, type Book } from '../store/book-store.ts';
import type { Library } from '../store/library.ts';

// `name` comes from a form, a query or JSON: anything but one non-empty string is a 400.
function requireName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') abort(400, 'A non-empty "name" is required.');
  return name as string;
}

// ---- The generic style (recommended): generic methods plus when(), an item through _lookup ----

function noBook(id: string): never {
  return abort(404, `No book with id ${JSON.stringify(id)}.`);
}

/**
 * `/<id>/` of the generic style, made by the collection's `_lookup` from the id. GET shows the
 * book, PUT renames it, DELETE removes it (`{}`); an unknown id is a 404. The book is read by the
 * handlers, in the request's transaction: routing (and so `_lookup`) runs before it begins.
 *
 * @example
 * ```ts
 * new GenericBookController(library, '1'); // GET → {"id":"1","name":"Dune"}, or 404
 * ```
 */
export class GenericBookController {
  // #private, as every object a controller keeps for itself: routing follows public fields, and
  // TypeScript's `private` is gone at run time (`private store` would make /store/<id>/store/ a path).
  readonly #library: Library;
  readonly #id: string;

  constructor(library: Library, id: string) {
    this.#library = library;
    this.#id = id;
  }

  @expose({ generic: true, template: 'json' })
  async index(): Promise<Book> {
    return (await this.#library.books().get(this.#id)) ?? noBook(this.#id);
  }

  @when('index', { method: 'PUT', template: 'json' })
  async index_put(name: string): Promise<Book> {
    const books = this.#library.books();
    if ((await books.get(this.#id)) === undefined) noBook(this.#id);
    return (await books.update(this.#id, requireName(name))) ?? noBook(this.#id);
  }

  @when('index', { method: 'DELETE', template: 'json' })
  async index_delete(): Promise<Record<string, never>> {
    if (!(await this.#library.books().remove(this.#id))) noBook(this.#id);
    return {};
  }
}

/**
 * The generic-style collection (spec section D): GET `/` lists the books, POST `/` creates one
 * (`name` required, else 400); `/<id>/` goes to a {@link GenericBookController} through `_lookup`.
 *
 * @example
 * ```ts
 * const library = new Library(':memory:');
 * createKernel({ root: new GenericBooksController(library), hooks: [library.hook] }).use(hooksPlugin).use(dispatchPlugin);
 * // POST / name=Dune → {"id":"1","name":"Dune"}; GET /1/ → the same; DELETE /1/ → {}
 * ```
 */
export class GenericBooksController {
  readonly #library: Library;

  constructor(library: Library) {
    this.#library = library;
  }

  @expose({ generic: true, template: 'json' })
  index(): Promise<Book[]> {
    return this.#library.books().list();
  }

  @when('index', { method: 'POST', template: 'json' })
  index_post(name: string): Promise<Book> {
    return this.#library.books().create(requireName(name));
  }

  // Routing runs before the request's transaction begins: the book itself is read by the item's
  // handlers. What cannot be an id at all is a 404 here already (`/index_post` names no book).
  _lookup(id: string, ...remainder: string[]): [GenericBookController, string[]] {
    if (!isRowId(id)) noBook(id);
    return [new GenericBookController(this.#library, id), remainder];
  }
}

/** What {@link GenericItemsController} keeps of one POST. */
interface Item {
  uuid: string;
  fields: Record<string, unknown>;
}

/** The bounds of {@link GenericItemsController}'s memory. */
export interface ItemLimits {
  /** Items kept at most (default 100): the oldest goes first. */
  maxItems?: number;
  /** Bytes kept at most, counted as the items' JSON (default 2 MiB): the oldest go first. */
  maxBytes?: number;
}

/**
 * The further generic example of the spec: GET `/` returns a JSON object; POST `/` with form
 * variables creates an item and returns it with its `uuid`. Anyone may post, so the items are kept
 * in memory within bounds — at most `maxItems` items and `maxBytes` bytes, the oldest dropped —
 * and an item larger than all of them together is refused (413).
 *
 * @example
 * ```ts
 * // POST / color=red → {"uuid":"…","fields":{"color":"red"}}
 * new GenericItemsController({ maxItems: 10 }); // remembers the last ten
 * ```
 */
export class GenericItemsController {
  // A Map iterates in insertion order: its first entry is the oldest.
  readonly #items = new Map<string, { item: Item; bytes: number }>();
  readonly #maxItems: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor({ maxItems = 100, maxBytes = 2 * 1024 * 1024 }: ItemLimits = {}) {
    this.#maxItems = maxItems;
    this.#maxBytes = maxBytes;
  }

  /** How many items, and how many bytes of them, are kept now. */
  retained(): { items: number; bytes: number } {
    return { items: this.#items.size, bytes: this.#bytes };
  }

  @expose({ generic: true, template: 'json' })
  index(): { items: Item[] } {
    return { items: [...this.#items.values()].map((entry) => entry.item) };
  }

  @when('index', { method: 'POST', template: 'json' })
  index_post(kwargs: Record<string, unknown>): Item {
    const item = { uuid: randomUUID(), fields: kwargs };
    const bytes = Buffer.byteLength(JSON.stringify(item));
    if (bytes > this.#maxBytes) abort(413, `An item of ${bytes} bytes is more than this example keeps (${this.#maxBytes} bytes in all).`);
    for (const [uuid, oldest] of this.#items) {
      if (this.#items.size < this.#maxItems && this.#bytes + bytes <= this.#maxBytes) break;
      this.#items.delete(uuid);
      this.#bytes -= oldest.bytes;
    }
    this.#items.set(item.uuid, { item, bytes });
    this.#bytes += bytes;
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

  readonly #library: Library;

  constructor(library: Library) {
    super();
    this.#library = library;
  }

  @expose('books/list.ejs')
  @expose('json')
  async get_all(): Promise<Book[] | { books: Book[] }> {
    const books = await this.#library.books().list();
    return renderingFor()?.mediaType === 'application/json' ? books : { books };
  }

  @expose('books/show.ejs')
  @expose('json')
  get_one(id: string): Promise<Book> {
    return this.find(id);
  }

  @expose('books/new.ejs')
  new(): Record<string, never> {
    return {};
  }

  @expose('books/edit.ejs')
  edit(id: string): Promise<Book> {
    return this.find(id);
  }

  @expose('json')
  async post(name: string): Promise<Book> {
    const book = await this.#library.books().create(requireName(name));
    // `npm start` shows it: the line carries the id the client got back in X-Request-Id.
    request.log.info({ bookId: book.id }, 'book added');
    return answer(book);
  }

  @expose('json')
  async put(id: string, name: string): Promise<Book> {
    await this.find(id);
    return answer((await this.#library.books().update(id, requireName(name)))!);
  }

  @expose('books/delete.ejs')
  get_delete(id: string): Promise<Book> {
    return this.find(id);
  }

  @expose('json')
  async delete(id: string): Promise<Record<string, never>> {
    if (!(await this.#library.books().remove(id))) noBook(id);
    return answer({});
  }

  @expose('json')
  async checkout(id: string): Promise<Book & { checked_out: boolean }> {
    return (await this.#library.books().checkout(id)) ?? noBook(id);
  }

  private async find(id: string): Promise<Book> {
    return (await this.#library.books().get(id)) ?? noBook(id);
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
  readonly #library: Library;

  constructor(library: Library) {
    super();
    this.#library = library;
  }

  @expose('json')
  async get(author_id: string, id: string | undefined = undefined): Promise<Book | Book[]> {
    await this.author(author_id);
    const books = this.#library.books();
    if (id === undefined) return books.list(author_id);
    return (await books.get(id, author_id)) ?? abort(404, `Author ${JSON.stringify(author_id)} has no book ${JSON.stringify(id)}.`);
  }

  @expose('json')
  async post(author_id: string, name: string): Promise<Book> {
    await this.author(author_id);
    return this.#library.books().create(requireName(name), author_id);
  }

  private async author(id: string): Promise<Author> {
    return (await this.#library.books().author(id)) ?? noAuthor(id);
  }
}

function noAuthor(id: string): never {
  return abort(404, `No author with id ${JSON.stringify(id)}.`);
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
  readonly #library: Library;

  constructor(library: Library) {
    super();
    this.#library = library;
    this.books = new AuthorBooksController(library);
  }

  @expose('json')
  get_all(): Promise<Author[]> {
    return this.#library.books().authorList();
  }

  @expose('json')
  async get_one(id: string): Promise<Author> {
    return (await this.#library.books().author(id)) ?? noAuthor(id);
  }
}

/**
 * The four book controllers of the sandbox over one library, to be mounted by a root: `generic`
 * (section D, at its own prefix), `items` (the `uuid` example), `books` and `authors` (section E).
 * Their handlers query the library in the request's transaction: the app needs `library.hook`.
 *
 * @example
 * ```ts
 * const library = new Library(':memory:');
 * const shelf = bookControllers(library);
 * class Root { books = shelf.books; authors = shelf.authors; generic = shelf.generic; items = shelf.items; }
 * createApp({ root: new Root(), hooks: [library.hook] });
 * ```
 */
export function bookControllers(library: Library) {
  return {
    generic: new GenericBooksController(library),
    items: new GenericItemsController(),
    books: new BooksController(library),
    authors: new AuthorsController(library),
  };
}
