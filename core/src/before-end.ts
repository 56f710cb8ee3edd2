/**
 * A request's `beforeEnd` callbacks: what the request holds (a transaction, a pooled connection, a
 * lock) is given back here, once the response is final and before any byte of it is written, so
 * that the response and what the request did agree. A streamed `app_iter` is read after them,
 * holding nothing: a client that reads slowly keeps no transaction open.
 */
import type { PinoLike } from './pino-like.ts';

/** What `beforeEnd` callbacks learn about the response. */
export interface EndOutcome {
  /**
   * True when the response is a success (a status below 400) that is being delivered: false for
   * an error response, a client that left, or after an earlier callback failed.
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
