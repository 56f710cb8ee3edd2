// A leaf of the walk: what a `_route` function may carry so that the walk can skip the generic
// handling of `_route`'s answer (checking it, following it, finding the method's owner) when the
// answer is simply a method of the routing controller itself. Types and a symbol only: the walk
// reads the property and calls it, the plugin that owns the `_route` provides it.
import type { Request } from '@hickory/core';
import type { Resolution } from './resolution.ts';
import type { RouteTable } from './route-table.ts';

/**
 * The property under which a `_route` function carries its {@link DirectRoute}. Only the exact
 * function the route table holds is read: a subclass that overrides `_route` has its own function,
 * without the property, and is routed the generic way.
 *
 * @example
 * ```ts
 * Object.defineProperty(MyRouter.prototype._route, directRoute, { value: routeAtOnce });
 * ```
 */
export const directRoute: unique symbol = Symbol('hickory.directRoute');

/**
 * A shortcut for a `_route`: given what `_route` would be called with, the {@link Resolution}
 * of the walk when `_route` would answer `[method, args]` with `method` an exposed method of
 * `controller` itself (one its route table lists under its own name, not a `route()` mount) and
 * `args` free of empty segments; `undefined` in every other case, and then it must have changed
 * nothing (the walk calls `_route` next, which decides as always). Called where `_route` would
 * be: after the guards' checks due there.
 *
 * @example
 * ```ts
 * const routeAtOnce: DirectRoute = (controller, table, remainder) =>
 *   remainder.length === 1 && table.index === undefined ? { controller, table, fn: show, remainder, canonical: false } : undefined;
 * ```
 */
export type DirectRoute = (controller: object, table: RouteTable, remainder: readonly string[], request: Request) => Resolution | undefined;

/**
 * The {@link DirectRoute} that `table`'s `_route` carries, if any.
 *
 * @example
 * ```ts
 * const direct = directRouteOf(table);
 * const found = direct?.(controller, table, rest, request);
 * ```
 */
export function directRouteOf(table: RouteTable): DirectRoute | undefined {
  return (table._route as { [directRoute]?: DirectRoute } | undefined)?.[directRoute];
}
