import { jsonify } from './jsonify.ts';
import { Response } from './response.ts';

/** One server-sent event: `data` (an object is sent as JSON), and optionally its `event` type, `id` and `retry`. */
export interface ServerSentEvent {
  /** The event's type (`addEventListener(type, …)` in the browser); left out: `message`. */
  readonly event?: string;
  /** The payload: a string is sent as it is (each line its own `data:` line), anything else as JSON. */
  readonly data: unknown;
  /** The event's id: the browser sends the last one back as `Last-Event-ID` when it reconnects. */
  readonly id?: string | number;
  /** How long (ms) the browser waits before it reconnects. */
  readonly retry?: number;
}

/** Where the events come from: an (async) iterable, or a function given a signal that aborts when the stream ends. */
export type EventFeed =
  | AsyncIterable<ServerSentEvent>
  | Iterable<ServerSentEvent>
  | ((signal: AbortSignal) => AsyncIterable<ServerSentEvent> | Iterable<ServerSentEvent>);

/** Options of {@link eventStream}. */
export interface EventStreamOptions {
  /** A comment line every so many ms while no event comes (proxies and browsers keep the stream open); `0`: none. Default 15000. */
  readonly heartbeat?: number;
}

const HEARTBEAT = 15_000;
const TICK = Symbol('heartbeat');
const CLOSED = Symbol('closed');

/**
 * The events of one stream as the text of `text/event-stream`, an async iterator whose `return()`
 * ends it at once: a source that is waiting for its next event (a subscription) is not waited for,
 * it is told to stop (`return()`, and the signal given to a source function aborts). The kernel
 * ends it too when the app closes (`endOn`), so `app.close()` does not wait on open streams.
 */
export class EventFrames implements AsyncIterableIterator<string> {
  readonly #abort = new AbortController();
  readonly #source: AsyncIterator<ServerSentEvent> | Iterator<ServerSentEvent>;
  readonly #heartbeat: number;
  #pending: Promise<IteratorResult<ServerSentEvent>> | undefined;
  #done = false;
  // Settles the wait in progress (a heartbeat timer or the source) when the stream is ended.
  #wake: ((value: typeof CLOSED) => void) | undefined;

  constructor(source: EventFeed, heartbeat: number) {
    const iterable = typeof source === 'function' ? source(this.#abort.signal) : source;
    this.#source = Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : (iterable as Iterable<ServerSentEvent>)[Symbol.iterator]();
    this.#heartbeat = heartbeat;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Ends the stream once `signal` aborts (the kernel's: the app is closing). */
  endOn(signal: AbortSignal): void {
    if (signal.aborted) void this.return();
    else signal.addEventListener('abort', () => void this.return(), { once: true, signal: this.#abort.signal });
  }

  async next(): Promise<IteratorResult<string>> {
    if (this.#done) return { done: true, value: undefined };
    // The source's next event is asked for once, and kept across heartbeats.
    this.#pending ??= Promise.resolve(this.#source.next());
    const waits: Array<Promise<IteratorResult<ServerSentEvent> | typeof TICK | typeof CLOSED>> = [this.#pending, new Promise((wake) => (this.#wake = wake))];
    let timer: NodeJS.Timeout | undefined;
    if (this.#heartbeat > 0) waits.push(new Promise((tick) => (timer = setTimeout(tick, this.#heartbeat, TICK))));
    try {
      const next = await Promise.race(waits);
      if (next === CLOSED) return { done: true, value: undefined };
      if (next === TICK) return { done: false, value: ':\n\n' };
      this.#pending = undefined;
      if (next.done === true) {
        this.#finish();
        return { done: true, value: undefined };
      }
      return { done: false, value: formatEvent(next.value) };
    } catch (error) {
      this.#finish();
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      this.#wake = undefined;
    }
  }

  async return(): Promise<IteratorResult<string>> {
    if (!this.#done) {
      this.#finish();
      // Not awaited: a source waiting for an event that never comes would hold the stream open.
      try {
        const stopping = this.#source.return?.();
        if (stopping instanceof Promise) stopping.catch(() => undefined);
      } catch {
        // A source that fails as it stops has nothing more to say to a stream that ended.
      }
    }
    return { done: true, value: undefined };
  }

  #finish(): void {
    this.#done = true;
    this.#abort.abort();
    this.#wake?.(CLOSED);
  }
}

/**
 * Server-sent events: returned from a handler, the response's head (`200`, `text/event-stream`,
 * `Cache-Control: no-cache`, `X-Accel-Buffering: no` so that nginx passes each event on) is sent at
 * once, then each event of `source` as it comes — object data as JSON, multi-line data split into
 * `data:` lines, `id`, `retry` — with a comment line every `heartbeat` ms of silence. The stream
 * holds no transaction (it is read after the request ended), follows the client's pace (the source
 * is not asked for the next event while the client has not taken the last ones), ends when the
 * source ends, when the client leaves (the source is told to stop) and when the app closes. A
 * client that reconnects sends the last id it saw in `request.headers['last-event-id']`.
 *
 * @example
 * ```ts
 * @expose() async clock() {
 *   return eventStream(async function* () {
 *     for (let i = 0; i < 3; i++) { yield { event: 'tick', data: { i }, id: i }; await sleep(1000); }
 *   }());
 * }
 * ```
 */
export function eventStream(source: EventFeed, options: EventStreamOptions = {}): Response {
  const heartbeat = options.heartbeat ?? HEARTBEAT;
  return new Response({
    status: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
    app_iter: new EventFrames(source, heartbeat),
  });
}

/**
 * One event in the `text/event-stream` format, ending with its blank line. A line break inside a
 * field would start a field of its own (a forged `event:` or `id:`), so data is split into `data:`
 * lines and `event`/`id` lose their line breaks.
 *
 * @example
 * ```ts
 * formatEvent({ event: 'book', data: { id: 1 }, id: 7 }); // 'event: book\nid: 7\ndata: {"id":1}\n\n'
 * ```
 */
function formatEvent(event: ServerSentEvent): string {
  let text = '';
  if (event.event !== undefined) text += `event: ${oneLine(String(event.event))}\n`;
  if (event.id !== undefined) text += `id: ${oneLine(String(event.id)).replaceAll('\0', '')}\n`;
  if (event.retry !== undefined && Number.isInteger(event.retry) && event.retry >= 0) text += `retry: ${event.retry}\n`;
  const data = typeof event.data === 'string' ? event.data : jsonify.encode(event.data);
  for (const line of data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
