import type { ServerResponse } from 'node:http';
import type { Ending } from './before-end.ts';
import type { CookieSigner } from './cookie-signer.ts';
import type { Request } from './request.ts';
import { requestAccess } from './request-access.ts';

/**
 * Tells a request which `ServerResponse` answers it (the pipeline does, as it makes the request),
 * so that `request.afterResponse()` can wait for it.
 *
 * @example
 * ```ts
 * answeredOn(request, res);
 * ```
 */
export function answeredOn(request: Request, res: ServerResponse): void {
  requestAccess.answerOn(request, res);
}

/**
 * The request's `beforeEnd` callbacks, when it has any (the pipeline runs them); from now on
 * `request.beforeEnd()` refuses new ones: the response is decided.
 *
 * @example
 * ```ts
 * const failed = await closeEnding(request)?.run({ ok: true, status: 200 });
 * ```
 */
export function closeEnding(request: Request): Ending | undefined {
  return requestAccess.closeEnding(request);
}

/**
 * Marks a request as answered without its handler (the 503 past `handler_timeout`, or a client
 * that left while it ran): from now on {@link requestEnded} is true and `request.beforeEnd()`
 * refuses callbacks, though the handler may still be running.
 *
 * @example
 * ```ts
 * cutOffRequest(exchange.request); // the pipeline, as it answers the 503
 * ```
 */
export function cutOffRequest(request: Request): void {
  requestAccess.cutOff(request);
}

/**
 * True once `request` has ended for its own code: it was cut off (answered 503 past
 * `handler_timeout`, or its client left, while its handler still ran), or what it holds is being
 * given back (its `beforeEnd` callbacks began: commit, rollback, clear). What a request took for
 * itself (a transaction, a session) must not be handed out after that: an accessor throws instead.
 *
 * @example
 * ```ts
 * if (requestEnded(request)) throw myError('ENDED', `${request.method} ${request.path}`);
 * return open.transaction;
 * ```
 */
export function requestEnded(request: Request): boolean {
  return requestAccess.ended(request);
}

/**
 * The cookie signer of the kernel that made `request` (`kernel.cookieSigner`), if it has one.
 *
 * @example
 * ```ts
 * findSignersWith(() => { const exchange = currentExchange(); return exchange && cookieSignerOf(exchange.request); });
 * ```
 */
export function cookieSignerOf(request: Request): CookieSigner | undefined {
  return requestAccess.signer(request);
}
