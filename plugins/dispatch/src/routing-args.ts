import type { Request } from '@hickory/core';

// Per request: the path segments a routing plugin consumed on the way to a controller that
// routes on by object dispatch (a REST resource's ids before a plain child controller). Kept on
// the request itself, so concurrent requests never see each other's: a WeakMap keyed by each
// request cost a get and a delete on every request, and the garbage collector its ephemerons.
const ROUTING_ARGS = Symbol('hickory.routingArgs');

interface WithRoutingArgs {
  [ROUTING_ARGS]?: string[] | undefined;
}

/**
 * Records segments that the handler reached next receives first, before its own path arguments,
 * as Pecan's `routing_args` (`GET /things/1/2/others/` → `others.index('1', '2')`).
 *
 * @example
 * ```ts
 * addRoutingArgs(request, ['1', '2']);
 * return [this.others, remainder]; // from a _route
 * ```
 */
export function addRoutingArgs(request: Request, args: readonly string[]): void {
  if (args.length === 0) return;
  const holder = request as WithRoutingArgs;
  const known = holder[ROUTING_ARGS];
  if (known === undefined) holder[ROUTING_ARGS] = [...args];
  else known.push(...args);
}

/**
 * `remainder` after the routing arguments recorded for this request, which are taken: the first
 * handler found gets them, and a later routing of the same request (an error page) starts clean.
 *
 * @example
 * ```ts
 * takeRoutingArgs(request, ['7']); // ['1', '2', '7'] after addRoutingArgs(request, ['1', '2'])
 * ```
 */
export function takeRoutingArgs(request: Request, remainder: readonly string[]): readonly string[] {
  const holder = request as WithRoutingArgs;
  const args = holder[ROUTING_ARGS];
  if (args === undefined) return remainder;
  holder[ROUTING_ARGS] = undefined;
  return remainder.length === 0 ? args : [...args, ...remainder];
}

/**
 * Forgets any routing arguments of this request (routing starts again: an internal redirect).
 *
 * @example
 * ```ts
 * clearRoutingArgs(request);
 * ```
 */
export function clearRoutingArgs(request: Request): void {
  // Only a request that has some gets the property written: most never do.
  if ((request as WithRoutingArgs)[ROUTING_ARGS] !== undefined) (request as WithRoutingArgs)[ROUTING_ARGS] = undefined;
}
