// Whether a function found by the walk can take the segments left: the rules the walk asks before
// it answers with a method, an index or a `_lookup`. Leaves: nothing here calls back into the walk,
// and nothing here needs the request (the walk passes its method and parameter mode).
import { exposureOf } from './exposure.ts';
import { genericHandler } from './generic-handler.ts';
import { parametersFor, parametersOf } from './parameters.ts';
import type { RouteTable } from './route-table.ts';
import type { Resolution } from './resolution.ts';

/**
 * True when `fn` can take `segments` as path arguments (enough positional parameters, or a rest
 * parameter). `explicit` is true for an app without context locals (`use_context_locals: false`:
 * the request and response parameters do not count); the routing reads it from the request once,
 * so that the parameter rules need no request.
 *
 * @example
 * ```ts
 * fits(function show(id) {}, ['7']);      // true
 * fits(function show(id) {}, ['7', '8']); // false
 * fits(function show(req, res, id) {}, ['7'], !request.use_context_locals); // true either way
 * ```
 */
export function fits(fn: Function, segments: readonly string[], explicit = false): boolean {
  if (segments.length === 0) return true;
  const params = parametersFor(fn, explicit);
  return params.rest || segments.length <= params.positional;
}

/**
 * Whether `fn` (a method or index of `table`) takes `rest` (not empty) for a request with
 * `method`: a generic method's path arguments go to the handler of that method, so they are
 * checked against that handler's parameters; with no handler for the method, the 405 decides.
 * `explicit` as for {@link fits}.
 *
 * @example
 * ```ts
 * if (fitsRequest(entry.fn, rest, table, request.method, false)) return { controller, table, fn: entry.fn, remainder: rest, canonical: false };
 * ```
 */
export function fitsRequest(fn: Function, rest: readonly string[], table: RouteTable, method: string, explicit: boolean): boolean {
  if (!exposureOf(fn)?.generic) return fits(fn, rest, explicit);
  const handler = genericHandler(table, fn, method);
  return handler === undefined || fits(handler, rest, explicit);
}

/**
 * Pecan's last resort, when no member matches and nothing on the way has `_lookup` or `_default`:
 * a generic index with a `when()` handler for the request's method takes the segments as its
 * arguments (`POST /5` → `index_post('5')`); GET stays a 404 unless a GET handler is attached.
 *
 * @example
 * ```ts
 * const handled = genericIndexFor(controller, table, table.index, ['5'], 'POST', false);
 * ```
 */
export function genericIndexFor(controller: object, table: RouteTable, index: Function, rest: string[], method: string, explicit: boolean): Resolution | undefined {
  if (!exposureOf(index)?.generic) return undefined;
  const handler = table.handlerFor(index, method);
  if (handler === undefined || !fits(handler, rest, explicit)) return undefined;
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
