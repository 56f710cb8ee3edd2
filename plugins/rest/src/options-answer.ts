import { Request, Response } from '@hickory/core';
import { currentExchange } from '@hickory/core/kit';
import { expose } from '@hickory/dispatch';
import { peekRoutingState, routingSlot, routingState } from '@hickory/dispatch/kit';

// The `Allow` value of this request's OPTIONS answer, in its routing state: `_route` records it
// just before it returns `answerOptions`, which reads it when called.
const ALLOW = routingSlot<string>('rest.allow');

/**
 * The exposed function a REST `_route` returns for OPTIONS on a resource without an `options`
 * method: it answers 204 with the `Allow` value recorded for the request by
 * {@link recordAllow}. Offered as HTML, JSON and text, so no usual `Accept` header makes it a 406.
 *
 * @example
 * ```ts
 * recordAllow(request, 'GET, HEAD, POST, OPTIONS');
 * return [answerOptions, []];
 * ```
 */
export const answerOptions: (...segments: unknown[]) => Response = expose()(
  expose('json')(
    expose({ content_type: 'text/plain' })(function options(...segments: unknown[]): Response {
      // Without context locals the request comes first (use_context_locals: false).
      const request = segments[0] instanceof Request ? segments[0] : currentExchange()?.request;
      const allow = (request && peekRoutingState(request)?.get(ALLOW)) || 'OPTIONS';
      return new Response({ status: 204, headers: { Allow: allow } });
    }),
  ),
);

/**
 * Records the `Allow` value of this request's OPTIONS answer.
 *
 * @example
 * ```ts
 * recordAllow(request, 'GET, HEAD, OPTIONS');
 * ```
 */
export function recordAllow(request: Request, allow: string): void {
  routingState(request).set(ALLOW, allow);
}
