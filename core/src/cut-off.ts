import type { Exchange } from './current.ts';
import { discardBody } from './discard-body.ts';
import type { Logger } from './logger.ts';
import { cutOffRequest } from './request-end.ts';
import type { Response } from './response.ts';

/**
 * Ends a request's own part in its answer (the 503 past `handler_timeout`, or a client that left,
 * while the handler or a hook may still run): its response is sealed — a late `set_cookie`, header,
 * status or body is ignored and logged once — and the stream it may hold is let go of; the request
 * is marked cut off (`requestEnded()`: a transaction accessor throws from now on, `beforeEnd()`
 * refuses). The answer goes on in a new exchange with `fresh` as its response, which the late
 * code, still holding the old exchange in its async context, never reaches.
 *
 * @example
 * ```ts
 * const goingOn = cutOff(exchange, new settings.responseClass(), logger);
 * return inExchange(contextLocals, goingOn, () => this.failThen(error, goingOn, next));
 * ```
 */
export function cutOff(exchange: Exchange, fresh: Response, logger: Logger): Exchange {
  const { request, response } = exchange;
  const what = `${request.method} ${request.path}`;
  discardBody(response.app_iter, (error) => logger.warn(`${what}: the body dropped when the request was cut off failed as it closed`, error));
  let told = false;
  response.headerMap.seal(() => {
    if (told) return;
    told = true;
    logger.warn(`${what}: its handler changed the response after the request was answered without it (handler_timeout, or the client left); the change was ignored`);
  });
  cutOffRequest(request);
  return (exchange.successor = { request, response: fresh, deadline: exchange.deadline });
}
