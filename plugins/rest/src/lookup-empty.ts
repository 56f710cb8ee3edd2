import { HTTPError } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import type { Awaitable } from '@hickory/dispatch/kit';

// What `_route` gives back (RouteResult, declared here too so that neither file imports the other).
type RouteResult = [target: object | Function, remainder: string[]];

/**
 * Calls a nested resource's `_lookup` with the empty segment a trailing slash leaves, for a GET
 * that reached the resource without its parent's id (`GET /foos/bars/`): as Pecan, the lookup
 * decides (it may redirect, abort or return `[controller, remainder]`). Object dispatch itself
 * never gives `_lookup` an empty segment; this is the one place REST does. What it returns goes
 * back to the walk as `_route`'s answer; nothing → `undefined` (the walk tries what is above), or a
 * 404 with `notFound` when nothing above may answer.
 *
 * @example
 * ```ts
 * return lookupWithEmptySegment(bars, routeTableOf(bars)!._lookup!, 'an id is missing');
 * ```
 */
export function lookupWithEmptySegment(controller: object, lookup: Function, notFound: string | undefined): Awaitable<RouteResult | undefined> {
  const result: unknown = lookup.call(controller, '');
  if (isThenable(result)) return Promise.resolve(result).then((settled) => found(settled, notFound));
  return found(result, notFound);
}

function found(result: unknown, notFound: string | undefined): RouteResult | undefined {
  if (result !== undefined && result !== null) return result as RouteResult;
  if (notFound !== undefined) throw new HTTPError(404, notFound);
  return undefined;
}
