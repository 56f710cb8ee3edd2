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

  /** True once the budget ran out: the request has been (or is being) answered with a 503. */
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
   * called first, and what `pending` does afterwards is ignored).
   */
  bound<T>(pending: PromiseLike<T>, late: (ms: number) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const arm = (): void => {
        const left = this.#left();
        if (left > 0) {
          timer = setTimeout(arm, Math.ceil(left));
          return;
        }
        timer = undefined;
        this.#expired = true;
        late(this.#ms);
        reject(new HTTPError(503, 'The server took too long to answer.'));
      };
      arm();
      pending.then(
        (value) => {
          if (timer !== undefined) clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          if (timer !== undefined) clearTimeout(timer);
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
