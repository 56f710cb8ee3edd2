import type { RouteTable } from './route-table.ts';

/**
 * The function of a generic method `fn` that answers `method`: its `when()` handler, else the
 * generic method itself for GET (and HEAD, unless a GET handler is attached), else `undefined`.
 * Read by the walk (do the path's arguments fit?), by select and by the route map.
 *
 * @example
 * ```ts
 * genericHandler(table, Root.prototype.items, 'PUT'); // Root.prototype.items_put
 * ```
 */
export function genericHandler(table: RouteTable, fn: Function, method: string): Function | undefined {
  return table.handlerFor(fn, method) ?? (method === 'HEAD' ? (table.handlerFor(fn, 'GET') ?? fn) : method === 'GET' ? fn : undefined);
}
