import type { ServerResponse } from 'node:http';
import type { PinoLike } from './pino-like.ts';
import { responseOutcome } from './server-response.ts';

/** A callback given to `request.afterResponse()`: `completed` is false when the client left first. */
export type AfterResponse = (completed: boolean) => void;

/**
 * The list of a request's `afterResponse` callbacks, run in order (including any added later) once
 * `res` was handed to the socket or the client went away; one that throws is logged on `log` and
 * the others still run (a cleanup must not stop the next one). `undefined` without a response (a
 * request made outside a kernel): then nothing is waited for, and nothing cleaned up after.
 *
 * @example
 * ```ts
 * (this.#afterCallbacks ??= callbacksAfter(this.#serverResponse, () => this.log))?.push(callback);
 * ```
 */
export function callbacksAfter(res: ServerResponse | undefined, log: () => PinoLike): AfterResponse[] | undefined {
  if (res === undefined) return undefined;
  const callbacks: AfterResponse[] = [];
  void responseOutcome(res).then((completed) => {
    for (const callback of callbacks) {
      try {
        callback(completed);
      } catch (error) {
        log().error({ err: error }, 'an afterResponse callback failed');
      }
    }
  });
  return callbacks;
}
