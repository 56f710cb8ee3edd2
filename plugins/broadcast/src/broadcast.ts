import { broadcastError } from './errors.ts';

/** Called with each message of a channel it subscribed to. */
export type Listener = (message: unknown) => void;

/** Options of {@link Broadcast.messages}. */
export interface MessagesOptions {
  /** Ends the iteration (an event stream's signal: its client left, or the app is closing). */
  readonly signal?: AbortSignal;
  /** Messages kept for a reader that has not taken them yet; past it the oldest are dropped. Default 100. */
  readonly buffer?: number;
}

/**
 * Messages fanned out to every subscriber of a channel: in one process ({@link memoryBroadcast}),
 * or to every instance of the app on one PostgreSQL database (`postgresBroadcast`).
 *
 * @example
 * ```ts
 * const off = broadcast.subscribe('books', (book) => console.log('new book', book));
 * await broadcast.publish('books', { id: 7, name: 'Dune' });
 * off();
 * ```
 */
export interface Broadcast {
  /** Sends `message` (a JSON value) to every subscriber of `channel`, in every instance that shares this broadcast. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Calls `listener` with each message published on `channel` from now on; returns what unsubscribes it. */
  subscribe(channel: string, listener: Listener): () => void;
  /**
   * The messages of `channel` from now on, as an async iterator (what `eventStream()` takes): held
   * for a slow reader up to `buffer` messages (the oldest dropped past it, so a reader that stopped
   * never grows the server's memory), ended when `signal` aborts or the iterator is returned.
   */
  messages(channel: string, options?: MessagesOptions): AsyncIterableIterator<unknown>;
  /**
   * Settles once every subscription made so far is in force (a PostgreSQL broadcast's `LISTEN`
   * answered): a message published after it reaches them. Rejects when the database cannot be reached.
   */
  ready(): Promise<void>;
  /** Stops: no more messages; a PostgreSQL broadcast gives its listening connection back. */
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Throws unless `channel` is a channel name: a PostgreSQL identifier (lower case, digits, `_`), so
 * that `LISTEN` never needs a name quoted from untrusted text.
 *
 * @example
 * ```ts
 * checkChannel('books'); // fine
 * checkChannel('Books; DROP'); // throws HICKORY_ERR_BROADCAST_CHANNEL
 * ```
 */
export function checkChannel(channel: unknown): asserts channel is string {
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) throw broadcastError('HICKORY_ERR_BROADCAST_CHANNEL', JSON.stringify(channel));
}

/**
 * The subscribers of one instance, by channel: what both broadcasts deliver to. A listener that
 * throws is reported to `failed` and does not stop the others.
 *
 * @example
 * ```ts
 * const local = new LocalChannels((error) => logger.error(error));
 * local.add('books', listener);
 * local.deliver('books', { id: 1 });
 * ```
 */
export class LocalChannels {
  readonly #listeners = new Map<string, Set<Listener>>();

  constructor(private readonly failed: (error: unknown) => void) {}

  /** Adds `listener`; true when it is the channel's first (a PostgreSQL broadcast LISTENs then). */
  add(channel: string, listener: Listener): boolean {
    let set = this.#listeners.get(channel);
    const first = set === undefined;
    if (set === undefined) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** Removes `listener`; true when the channel has no listener left. */
  remove(channel: string, listener: Listener): boolean {
    const set = this.#listeners.get(channel);
    if (set === undefined || !set.delete(listener) || set.size > 0) return false;
    this.#listeners.delete(channel);
    return true;
  }

  /** The channels that have listeners. */
  channels(): string[] {
    return [...this.#listeners.keys()];
  }

  deliver(channel: string, message: unknown): void {
    // A copy: a listener that unsubscribes (or subscribes) while called does not change this round.
    for (const listener of [...(this.#listeners.get(channel) ?? [])]) {
      try {
        listener(message);
      } catch (error) {
        this.failed(error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}

/**
 * A channel's messages as an async iterator over a bounded queue, on top of `subscribe`.
 *
 * @example
 * ```ts
 * for await (const book of messagesOf(broadcast, 'books', { signal })) send(book);
 * ```
 */
export function messagesOf(subscribe: Broadcast['subscribe'], channel: string, options: MessagesOptions = {}): AsyncIterableIterator<unknown> {
  const limit = options.buffer ?? 100;
  if (!Number.isInteger(limit) || limit < 1) throw broadcastError('HICKORY_ERR_BROADCAST_MESSAGE', channel, `buffer must be a positive integer, not ${String(limit)}`);
  const queue: unknown[] = [];
  let waiting: ((result: IteratorResult<unknown>) => void) | undefined;
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    off();
    options.signal?.removeEventListener('abort', finish);
    waiting?.({ done: true, value: undefined });
    waiting = undefined;
    queue.length = 0;
  };
  const off = subscribe(channel, (message) => {
    if (waiting !== undefined) {
      const wake = waiting;
      waiting = undefined;
      wake({ done: false, value: message });
      return;
    }
    queue.push(message);
    if (queue.length > limit) queue.shift();
  });
  if (options.signal?.aborted === true) finish();
  else options.signal?.addEventListener('abort', finish, { once: true });
  const iterator: AsyncIterableIterator<unknown> = {
    [Symbol.asyncIterator]: () => iterator,
    next: () => {
      if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift() });
      if (done) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve) => (waiting = resolve));
    },
    return: () => {
      finish();
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return iterator;
}
