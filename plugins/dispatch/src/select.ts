import { HTTPError } from '@hickory/core';
import { exposureOf, renderingsOf, type Rendering } from './exposure.ts';
import type { RouteTable } from './route-table.ts';
import type { Resolution } from './resolution.ts';

/** The function that answers a request's HTTP method, with the renderings it may use. */
export type Handler =
  | { readonly kind: 'call'; readonly fn: Function; readonly renderings: readonly Rendering[] }
  | { readonly kind: 'options'; readonly allow: string };

/**
 * Chooses what answers `method` at a resolved target. A generic method answers GET and HEAD
 * (unless a `when()` handler takes them), its `when()` handlers their methods, OPTIONS gets the
 * `Allow` list, and any other method → 405 with `Allow`. A non-generic target answers any method.
 *
 * @example
 * ```ts
 * selectHandler(found, 'POST'); // { kind: 'call', fn: Root.prototype.items_post, renderings: [...] }
 * ```
 */
export function selectHandler(found: Resolution, method: string): Handler {
  const { fn, table } = found;
  if (!exposureOf(fn)?.generic) return { kind: 'call', fn, renderings: renderingsOf(fn) };
  const handler = genericHandler(table, fn, method);
  if (handler !== undefined) return { kind: 'call', fn: handler, renderings: renderingsOf(handler, fn) };
  const allow = allowedMethods(found);
  if (method === 'OPTIONS') return { kind: 'options', allow };
  throw new HTTPError(405, `${method} is not allowed here; allowed: ${allow}.`, { Allow: allow });
}

/**
 * The function of a generic method `fn` that answers `method`: its `when()` handler, else the
 * generic method itself for GET (and HEAD, unless a GET handler is attached), else `undefined`.
 *
 * @example
 * ```ts
 * genericHandler(table, Root.prototype.items, 'PUT'); // Root.prototype.items_put
 * ```
 */
export function genericHandler(table: RouteTable, fn: Function, method: string): Function | undefined {
  return table.handlerFor(fn, method) ?? (method === 'HEAD' ? (table.handlerFor(fn, 'GET') ?? fn) : method === 'GET' ? fn : undefined);
}

/**
 * The `Allow` value of a generic target: GET, HEAD, its `when()` methods, and OPTIONS.
 *
 * @example
 * ```ts
 * allowedMethods(found); // 'GET, HEAD, POST, OPTIONS'
 * ```
 */
export function allowedMethods(found: Resolution): string {
  return [...new Set(['GET', 'HEAD', ...found.table.handledMethods(found.fn), 'OPTIONS'])].join(', ');
}
