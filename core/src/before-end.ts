/**
 * A request's `beforeEnd` callbacks: what the request holds (a transaction, a pooled connection, a
 * lock) is given back here, once the response is final and before it ends, so that the response
 * and what the request did agree. The pipeline runs them for a body known in full before writing
 * anything; for a streamed `app_iter`, once the stream has produced its last byte, before the
 * response ends (see `streamEnding`).
 */
import type { PinoLike } from './pino-like.ts';
import type { AppIter } from './response.ts';

/** What `beforeEnd` callbacks learn about the response. */
export interface EndOutcome {
  /**
   * True when the response is a success (a status below 400) that is being delivered: false for
   * an error response, a client that left, a streamed body that failed, or after an earlier
   * callback failed.
   */
  readonly ok: boolean;
  /** The response's status. */
  readonly status: number;
}

/** A callback given to `request.beforeEnd()`; it may return a promise, which is awaited. */
export type BeforeEnd = (outcome: EndOutcome) => unknown;

/**
 * One request's `beforeEnd` callbacks, run at most once: the first `run()` runs them, a later one
 * gets the same answer. Callbacks run last-registered first (what was taken last is given back
 * first), each after the previous one settled; once one throws, the rest are told `ok: false`.
 *
 * @example
 * ```ts
 * const ending = new Ending(() => request.log);
 * ending.add(({ ok }) => (ok ? tx.commit() : tx.rollback()));
 * const failed = await ending.run({ ok: true, status: 200 }); // true when a callback threw
 * ```
 */
export class Ending {
  readonly #callbacks: BeforeEnd[] = [];
  #ran: Promise<boolean> | undefined;

  constructor(private readonly log: () => PinoLike) {}

  /** Adds a callback (`request.beforeEnd()` refuses one once they ran). */
  add(callback: BeforeEnd): void {
    this.#callbacks.push(callback);
  }

  /** True once `run()` was called. */
  get started(): boolean {
    return this.#ran !== undefined;
  }

  /** Runs the callbacks once; settles with `true` when one of them failed (it was logged). */
  run(outcome: EndOutcome): Promise<boolean> {
    return (this.#ran ??= this.#runAll(outcome));
  }

  async #runAll(outcome: EndOutcome): Promise<boolean> {
    let failed = false;
    for (let i = this.#callbacks.length - 1; i >= 0; i--) {
      const told = failed ? { ok: false, status: 500 } : outcome;
      if (!(await this.#runOne(this.#callbacks[i]!, told))) failed = true;
    }
    return failed;
  }

  async #runOne(callback: BeforeEnd, outcome: EndOutcome): Promise<boolean> {
    try {
      await callback(outcome);
      return true;
    } catch (error) {
      this.log().error({ err: error }, 'a beforeEnd callback failed: the response is an error');
      return false;
    }
  }
}

/**
 * `iter` as a stream that runs `ending` after its last chunk and before it ends: told `ok` when
 * the whole body was produced, `ok: false` when the source failed or the client left (the
 * stream is then cut off). When a callback fails, the stream fails too, so the client never sees
 * a complete body for work that was not kept.
 *
 * @example
 * ```ts
 * response.app_iter = endingWithStream(response.app_iter, ending, response.status);
 * ```
 */
export async function* endingWithStream(iter: AppIter, ending: Ending, status: number): AsyncGenerator<string | Uint8Array> {
  let produced = false;
  try {
    // A string or bytes iterate as characters or numbers: they are one chunk.
    if (typeof iter === 'string' || iter instanceof Uint8Array) yield iter;
    else for await (const chunk of iter as AsyncIterable<string | Uint8Array>) yield chunk;
    produced = true;
  } finally {
    // Reached on the last chunk, on a failing source, and when the consumer stops early (a
    // client that left): only the first is a success.
    const failed = await ending.run({ ok: produced && status < 400, status });
    if (produced && failed) throw new Error('a beforeEnd callback failed after the body was streamed: the response is cut off');
  }
}
