import type { Request } from '@hickory/core';

// Per request: the path segments a routing plugin consumed on the way to a controller that
// routes on by object dispatch (a REST resource's ids before a plain child controller). Keyed by
// the request, so concurrent requests never see each other's.
const pending = new WeakMap<Request, string[]>();

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
  const known = pending.get(request);
  if (known === undefined) pending.set(request, [...args]);
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
  const args = pending.get(request);
  if (args === undefined) return remainder;
  pending.delete(request);
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
  pending.delete(request);
}
