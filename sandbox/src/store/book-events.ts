import type { Kysely } from 'kysely';
import pg from 'pg';
import type { ServerSentEvent } from '@hickory/core';
import { memoryBroadcast, postgresBroadcast, type Broadcast } from '@hickory/app';
import { BookStore, type Book } from './book-store.ts';
import { isPostgresUrl } from './database.ts';
import type { ShowcaseTables } from './tables.ts';

/** The broadcast channel of added books. */
export const BOOKS_CHANNEL = 'books';

/** What {@link BookEvents} reads of the library: where the data is, and reads outside every request. */
export interface BookSource {
  readonly location: string;
  read<T>(work: (db: Kysely<ShowcaseTables>) => Promise<T>): Promise<T>;
}

/** Options of {@link BookEvents}. */
export interface BookEventsOptions {
  /** On a SQLite file: how often (ms) the books other processes added are looked for while a page listens. Default 1000. */
  readonly pollMs?: number;
  /** Told of a failed publish, poll or listener. Default: `console.error`. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The books added to the showcase's database, announced once their transaction committed, to
 * every open live page (`/live/`) of every instance:
 *
 * - **PostgreSQL** (`DATABASE_URL`): `postgresBroadcast` on a small pool of its own (one `LISTEN`ing
 *   connection, two for `NOTIFY`): every instance on the database hears every book.
 * - **SQLite**: `memoryBroadcast`, which reaches the pages of this process only. Under
 *   `hickory serve --workers N` the workers share nothing but the file, so while a page listens each
 *   worker also looks in the file every `pollMs` for books above the highest id it has seen (the
 *   `books` table is itself the log: ids are `AUTOINCREMENT`, never reused, and SQLite's one writer
 *   commits them in id order, so nothing committed can appear below the cursor). A book this
 *   process announced itself is not announced twice. A second worker's book reaches a page within
 *   `pollMs`; an in-memory database (`:memory:`, one process by nature) is never polled.
 *
 * @example
 * ```ts
 * const events = new BookEvents(library);
 * await events.added([{ id: '7', name: 'Dune' }]); // what the library does after a commit
 * return eventStream((signal) => events.stream(undefined, signal));
 * ```
 */
export class BookEvents {
  readonly #source: BookSource;
  readonly #pollMs: number;
  readonly #onError: (error: unknown) => void;
  #broadcast: Broadcast | undefined;
  #pool: pg.Pool | undefined;
  #streams = 0;
  // SQLite polling: the highest id seen, and the ids this process announced that a poll has not passed yet.
  #cursor: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  #generation = 0;
  readonly #announced = new Set<number>();
  // The ids a poll announced lately (the last 1000): one of this process's whose commit a poll saw
  // before the library announced it is not announced again.
  readonly #polled = new Set<number>();

  constructor(source: BookSource, options: BookEventsOptions = {}) {
    this.#source = source;
    this.#pollMs = options.pollMs ?? 1000;
    this.#onError = options.onError ?? ((error) => console.error('book events:', error));
  }

  /** The broadcast, made on first use: PostgreSQL's when the library is on PostgreSQL, else memory. */
  get broadcast(): Broadcast {
    if (this.#broadcast !== undefined) return this.#broadcast;
    if (isPostgresUrl(this.#source.location)) {
      // Connections of its own (at most 3): one LISTENs for as long as a page listens, the others
      // NOTIFY; a stream never holds a request's pooled connection, and a publish never waits for one.
      this.#pool = new pg.Pool({ connectionString: this.#source.location, max: 3, connectionTimeoutMillis: 5000 });
      this.#pool.on('error', this.#onError);
      return (this.#broadcast = postgresBroadcast(this.#pool, { onError: this.#onError }));
    }
    return (this.#broadcast = memoryBroadcast({ onError: this.#onError }));
  }

  /** Announces books whose transaction committed (the library calls it); a failed publish is reported, never thrown. */
  async added(books: readonly Book[]): Promise<void> {
    for (const book of books) {
      const id = Number(book.id);
      // A poll may have found it in the file between its commit and now: not twice.
      if (this.#polled.delete(id)) continue;
      if (this.#polling) this.#announced.add(id);
      try {
        await this.broadcast.publish(BOOKS_CHANNEL, book);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  /**
   * A live page's events: the books above `after` (a book id, what the page showed or the
   * browser's `Last-Event-ID`) read first (the first 100 of them: a page that missed more is
   * better reloaded), then each book as it is added, until `signal` aborts.
   * Each event is `{ event: 'book', id, data: { id, name } }`.
   */
  async *stream(after: number | undefined, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
    // Subscribed before the catch-up read: a book committed meanwhile is in one or the other.
    const live = this.broadcast.messages(BOOKS_CHANNEL, { signal });
    // In force (PostgreSQL: the LISTEN answered) before the catch-up read, so nothing falls between them.
    await this.broadcast.ready();
    await this.#opened(signal);
    const sent = new Set<string>();
    if (after !== undefined) {
      // Read outside every transaction: a stream holds none (it is read after its request ended).
      for (const book of await this.#source.read((db) => new BookStore(db).after(after))) {
        sent.add(book.id);
        yield bookEvent(book);
      }
    }
    for await (const message of live) {
      const book = message as Book;
      if (!sent.delete(book.id)) yield bookEvent(book);
    }
  }

  /** Stops: no more polling, the broadcast closed (and its pool ended); used again, it starts afresh. */
  async close(): Promise<void> {
    this.#stopPolling();
    const [broadcast, pool] = [this.#broadcast, this.#pool];
    this.#broadcast = undefined;
    this.#pool = undefined;
    await broadcast?.close();
    await pool?.end();
  }

  // Counts the open streams: polling runs on a SQLite file while at least one is open. Its cursor
  // is read before the stream's catch-up read, so a book is in one or the other (`stream` drops the twice-seen).
  async #opened(signal: AbortSignal): Promise<void> {
    // A client that left while the subscription was being made counts for nothing.
    if (signal.aborted) return;
    this.#streams++;
    signal.addEventListener('abort', () => {
      if (--this.#streams === 0) this.#stopPolling();
    }, { once: true });
    const file = !isPostgresUrl(this.#source.location) && this.#source.location !== ':memory:';
    if (!file || this.#pollMs <= 0 || this.#polling) return;
    this.#polling = true;
    const generation = ++this.#generation;
    try {
      const last = await this.#source.read((db) => new BookStore(db).lastId());
      if (generation === this.#generation) this.#cursor = last;
    } catch (error) {
      this.#onError(error);
    }
    if (generation === this.#generation) this.#schedule(generation);
  }

  #schedule(generation: number): void {
    this.#timer = setTimeout(() => {
      void this.#poll(generation).finally(() => {
        if (generation === this.#generation) this.#schedule(generation);
      });
    }, this.#pollMs);
    this.#timer.unref();
  }

  // One look in the file; what a poll of an earlier generation (polling stopped since) finds is dropped.
  async #poll(generation: number): Promise<void> {
    try {
      const cursor = this.#cursor ?? (await this.#source.read((db) => new BookStore(db).lastId()));
      const books = await this.#source.read((db) => new BookStore(db).after(cursor));
      if (generation !== this.#generation) return;
      let highest = cursor;
      for (const book of books) {
        const id = Number(book.id);
        highest = Math.max(highest, id);
        if (this.#announced.delete(id)) continue;
        this.#polled.add(id);
        if (this.#polled.size > 1000) this.#polled.delete(this.#polled.values().next().value!);
        await this.broadcast.publish(BOOKS_CHANNEL, book);
      }
      this.#cursor = highest;
      for (const id of this.#announced) if (id <= highest) this.#announced.delete(id);
    } catch (error) {
      this.#onError(error);
    }
  }

  #stopPolling(): void {
    this.#polling = false;
    this.#generation++;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#cursor = undefined;
    this.#announced.clear();
    this.#polled.clear();
  }
}

function bookEvent(book: Book): ServerSentEvent {
  return { event: 'book', id: book.id, data: { id: book.id, name: book.name } };
}
