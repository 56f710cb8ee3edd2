import { abort, eventStream, request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { isRowId } from '../store/book-store.ts';
import type { Library } from '../store/library.ts';

/**
 * `/live/`: the books, and each book added afterwards, on every open page without a reload —
 * however it is added (the forms of `/books/new` and `/library/`, the JSON API, on any instance).
 * The page (`live/index.ejs`, its script `/live.js`: the CSP allows no inline script) opens
 * `/live/events`, a stream of server-sent events fed by the library's {@link BookEvents}: a book
 * is announced once its transaction committed, through PostgreSQL's `LISTEN/NOTIFY` when the
 * showcase runs on `DATABASE_URL`, in memory otherwise.
 *
 * @example
 * ```ts
 * class Root { live = new LiveController(library); }
 * // GET /live/events?after=5 (Accept: text/event-stream) → event: book / id: 6 / data: {"id":"6","name":"Dune"}
 * ```
 */
export class LiveController {
  // #private: routing follows public fields.
  readonly #library: Library;

  constructor(library: Library) {
    this.#library = library;
  }

  // GET (and HEAD) only: generic handlers answer any other method 405.
  @expose({ generic: true, template: 'live/index.ejs' })
  async index() {
    const books = await this.#library.books().list();
    // The stream starts after the last book the page shows: one added meanwhile is not missed.
    return { books, after: books.reduce((last, book) => Math.max(last, Number(book.id)), 0), engine: this.#library.engine };
  }

  /**
   * The events: the books above `after` (the page's last book; a reconnecting browser's
   * `Last-Event-ID` wins, so it gets what it missed), then each one added, a heartbeat comment
   * every 15 s. No transaction is held: the catch-up read happens outside every request's.
   */
  @expose({ generic: true, content_type: 'text/event-stream' })
  events(after: string | undefined = undefined) {
    const last = request.headers['last-event-id'];
    const from = typeof last === 'string' && last !== '' ? last : after;
    if (from !== undefined && from !== '0' && !isRowId(from)) abort(400, `"after" (or Last-Event-ID) must be a book id, not ${JSON.stringify(from)}.`);
    const events = this.#library.events;
    return eventStream((signal) => events.stream(from === undefined ? undefined : Number(from), signal));
  }
}
