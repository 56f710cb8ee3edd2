import type { ServerResponse } from 'node:http';
import type { PinoLike } from './pino-like.ts';
import { responseOutcome } from './server-response.ts';

/** A callback given to `request.afterResponse()`: `completed` is false when the client left first. */
export type AfterResponse = (completed: boolean) => void;

/**
 * Runs `callbacks` (in order, including any added later) once `res` was handed to the socket or
 * the client went away; one that throws is logged on `log` and the others still run (a cleanup
 * must not stop the next one).
 *
 * @example
 * ```ts
 * const callbacks = [() => temps.removeAll()];
 * runAfterResponse(res, callbacks, request.log);
 * ```
 */
export function runAfterResponse(res: ServerResponse, callbacks: readonly AfterResponse[], log: () => PinoLike): void {
  void responseOutcome(res).then((completed) => {
    for (const callback of callbacks) {
      try {
        callback(completed);
      } catch (error) {
        log().error({ err: error }, 'an afterResponse callback failed');
      }
    }
  });
}

/**
 * The list of a request's `afterResponse` callbacks, run by {@link runAfterResponse} once `res` is
 * done with; `undefined` without a response (a request made outside a kernel): then nothing is
 * waited for, and nothing cleaned up after.
 *
 * @example
 * ```ts
 * (this.#afterCallbacks ??= callbacksAfter(this.#serverResponse, () => this.log))?.push(callback);
 * ```
 */
export function callbacksAfter(res: ServerResponse | undefined, log: () => PinoLike): AfterResponse[] | undefined {
  if (res === undefined) return undefined;
  const callbacks: AfterResponse[] = [];
  runAfterResponse(res, callbacks, log);
  return callbacks;
}
