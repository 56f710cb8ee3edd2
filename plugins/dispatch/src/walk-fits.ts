// Whether a function found by the walk can take the segments left: the rules the walk asks before
// it answers with a method, an index or a `_lookup`. Leaves: nothing here calls back into the walk.
import type { Request } from '@hickory/core';
import { exposureOf } from './exposure.ts';
import { genericHandler } from './generic-handler.ts';
import { handlerParameters, parametersOf } from './parameters.ts';
import type { RouteTable } from './route-table.ts';
import type { Resolution } from './resolution.ts';

/**
 * True when `fn` can take `segments` as path arguments (enough positional parameters, or a rest
 * parameter); give the `request` so that an app without context locals does not count the
 * request and response parameters.
 *
 * @example
 * ```ts
 * fits(function show(id) {}, ['7']);      // true
 * fits(function show(id) {}, ['7', '8']); // false
 * ```
 */
export function fits(fn: Function, segments: readonly string[], request?: Request): boolean {
  if (segments.length === 0) return true;
  const params = handlerParameters(fn, request);
  return params.rest || segments.length <= params.positional;
}

/**
 * Whether `fn` (a method or index of `table`) takes `rest` for this request: a generic method's
 * path arguments go to the handler of the request's method, so they are checked against that
 * handler's parameters; with no handler for the method, the 405 decides.
 *
 * @example
 * ```ts
 * if (fitsRequest(entry.fn, rest, table, request)) return { controller, table, fn: entry.fn, remainder: rest, canonical: false };
 * ```
 */
export function fitsRequest(fn: Function, rest: readonly string[], table: RouteTable, request: Request): boolean {
  if (rest.length === 0) return true;
  if (!exposureOf(fn)?.generic) return fits(fn, rest, request);
  const handler = genericHandler(table, fn, request.method);
  return handler === undefined || fits(handler, rest, request);
}

/**
 * Pecan's last resort, when no member matches and nothing on the way has `_lookup` or `_default`:
 * a generic index with a `when()` handler for the request's method takes the segments as its
 * arguments (`POST /5` → `index_post('5')`); GET stays a 404 unless a GET handler is attached.
 *
 * @example
 * ```ts
 * const handled = genericIndexFor(controller, table, table.index, ['5'], request);
 * ```
 */
export function genericIndexFor(controller: object, table: RouteTable, index: Function, rest: string[], request: Request): Resolution | undefined {
  if (!exposureOf(index)?.generic) return undefined;
  const handler = table.handlerFor(index, request.method);
  if (handler === undefined || !fits(handler, rest, request)) return undefined;
  return { controller, table, fn: index, remainder: rest, canonical: false };
}

/**
 * Whether a `_lookup` takes the segments: a parameter for each one that is not empty (or a rest
 * parameter), and no required parameter left without one. Read once per function; one that
 * declares no parameter (it may read `arguments`) or whose source cannot be read (native, bound)
 * takes anything. One that cannot is no match (as Pecan, whose call fails).
 *
 * @example
 * ```ts
 * lookupTakes(function _lookup(id) {}, ['7']);      // true
 * lookupTakes(function _lookup(id) {}, ['7', '8']); // false
 * ```
 */
export function lookupTakes(lookup: Function, segments: readonly string[]): boolean {
  let arity = lookupArities.get(lookup);
  if (arity === undefined) lookupArities.set(lookup, (arity = lookupArity(lookup)));
  let given = 0;
  for (const s of segments) if (s !== '') given++;
  return given <= arity.most && arity.required <= segments.length;
}

const lookupArities = new WeakMap<Function, { readonly most: number; readonly required: number }>();

function lookupArity(lookup: Function): { readonly most: number; readonly required: number } {
  if (/\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(lookup))) return { most: Infinity, required: 0 };
  const { positional, rest, list } = parametersOf(lookup);
  if (list.length === 0) return { most: Infinity, required: 0 };
  let required = 0;
  for (const p of list) if (p.required && !p.rest) required++;
  return { most: rest ? Infinity : positional, required };
}
