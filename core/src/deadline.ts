import type { ServerResponse } from 'node:http';
import { HTTPError } from './http-error.ts';

/**
 * The time one request may spend on its own work — routing, security checks, hooks, `_lookup`,
 * the handler — before it is answered with a 503 (`handler_timeout`). Time spent waiting for the
 * client's body is not counted: that is the client's, bounded by `request_timeout`. Made only
 * when a request first has to wait, so a request that never waits costs nothing.
 *
 * @example
 * ```ts
 * const deadline = new Deadline(30_000);
 * const routed = await deadline.bound(dispatching, () => log.warn('too slow'));
 * ```
 */
export class Deadline {
  readonly #ms: number;
  readonly #started = performance.now();
  // When the wait for the body began (-1 when not waiting), and the waits so far.
  #bodySince = -1;
  #bodyMs = 0;
  #expired = false;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /**
   * True once the request was cut off: the budget ran out (it has been, or is being, answered
   * with a 503) or, for a wait given the response to watch, the client left.
   */
  get expired(): boolean {
    return this.#expired;
  }

  /** `loading`, with the time it takes left out of the budget. */
  waitingForBody<T>(loading: Promise<T>): Promise<T> {
    this.#bodySince = performance.now();
    return loading.finally(() => {
      this.#bodyMs += performance.now() - this.#bodySince;
      this.#bodySince = -1;
    });
  }

  /**
   * Settles as `pending` does, or rejects with a 503 once the budget ran out (then `late` is
   * called first, and what `pending` does afterwards is ignored). Given the response `res`, it
   * also rejects (without `late`) as soon as the client leaves: nobody waits for that answer.
   */
  bound<T>(pending: PromiseLike<T>, late: (ms: number) => void, res?: ServerResponse): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const clientLeft = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        this.#expired = true;
        reject(new HTTPError(503, 'The client left before the request was answered.'));
      };
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        res?.removeListener('close', clientLeft);
      };
      const arm = (): void => {
        const left = this.#left();
        if (left > 0) {
          timer = setTimeout(arm, Math.ceil(left));
          return;
        }
        timer = undefined;
        res?.removeListener('close', clientLeft);
        this.#expired = true;
        late(this.#ms);
        reject(new HTTPError(503, 'The server took too long to answer.'));
      };
      arm();
      if (res !== undefined) {
        if (res.destroyed) clientLeft();
        else res.once('close', clientLeft);
      }
      pending.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  #left(): number {
    const now = performance.now();
    const waiting = this.#bodySince === -1 ? 0 : now - this.#bodySince;
    return this.#ms - (now - this.#started - this.#bodyMs - waiting);
  }
}
