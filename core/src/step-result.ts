import { adoptResponse, type Exchange } from './current.ts';
import { Response } from './response.ts';

/**
 * Applies a step's value to the response: a `Response` replaces it, a string or bytes become the
 * body, another object is sent as JSON, `undefined` leaves it as it is (a 200 with no body
 * becomes 204 when written).
 *
 * @example
 * ```ts
 * if (answer !== undefined) return applyResult(exchange, answer); // a tap answered the request
 * ```
 */
export function applyResult(exchange: Exchange, value: unknown): undefined {
  if (value === undefined) return undefined;
  if (value instanceof Response) {
    adoptResponse(exchange, value);
    return undefined;
  }
  if (typeof value === 'string' || value instanceof Uint8Array) {
    exchange.response.body = value;
    return undefined;
  }
  exchange.response.json = value;
  return undefined;
}

/**
 * `then` for a step: what `next` gives (at once or later) is what the promise settles with. A
 * request already answered with a 503 (past `handler_timeout`) goes no further: its next step
 * would run for a response that is gone.
 *
 * @example
 * ```ts
 * if (isThenable(found)) return settle(exchange, found, (lookup) => this.afterLookupStep(lookup, exchange, readBody));
 * ```
 */
export function settle<T>(exchange: Exchange, pending: PromiseLike<T>, next: (value: T) => Promise<void> | undefined): Promise<void> {
  return Promise.resolve(pending).then((value) => (exchange.deadline?.expired === true ? undefined : next(value)));
}
