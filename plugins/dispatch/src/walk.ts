import type { Request } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import { directRouteOf } from './direct-route.ts';
import { dispatchError } from './errors.ts';
import { exposureOf } from './exposure.ts';
import { describeValue } from './names.ts';
import { handlerParameters, parametersOf } from './parameters.ts';
import { MAX_SEGMENTS } from './path.ts';
import { isController, routeTableOf, type RouteTable } from './route-table.ts';
import { routedOwner } from './routed-owner.ts';
import { isRoutedMethod, type RoutedMethod } from './route-to.ts';
import { genericHandler } from './generic-handler.ts';
import { guardsDeclared, isOpened, runDueChecks, startChecks } from './guards.ts';
import type { Resolution, WalkBudget } from './resolution.ts';
import type { Awaitable } from './awaitable.ts';

export type { Resolution, WalkBudget } from './resolution.ts';

/** Most `_lookup` hops in one request (more → not found). */
const MAX_LOOKUPS = 16;

interface Fallback {
  readonly controller: object;
  readonly table: RouteTable;
  readonly segments: readonly string[];
  readonly pos: number;
  readonly special: '_lookup' | '_default';
  // How long the trail was here: falling back to this frame leaves what was entered after it.
  readonly depth: number;
}

/**
 * The walk stage: walks the controller tree from `controller` along decoded `segments` and says
 * which function answers, or `undefined` when nothing does. Segments select entries of each
 * controller's route table (never a property read); a path ending in `/` or used up on a
 * controller selects `index`; `_route` replaces the routing of its controller; on a miss,
 * `_lookup` then `_default` are tried from the deepest controller outward. `_lookup` must consume
 * a segment or hand the segments to a different controller; at most {@link MAX_LOOKUPS} lookups per request. At once unless a `_route` or
 * `_lookup` on the way returns a promise (the walk then goes on from there); a throw from one
 * that answers at once is thrown here, not returned as a rejected promise.
 *
 * @example
 * ```ts
 * const found = await walk(root, ['catalog', 'books', ''], request);
 * found?.fn === BooksController.prototype.index; // true
 * ```
 */
export function walk(
  controller: object,
  segments: readonly string[],
  request: Request,
  budget: WalkBudget = { lookups: 0, routes: 0 },
): Awaitable<Resolution | undefined> {
  const table = routeTableOf(controller);
  if (table === undefined) return undefined;
  return walkFrom(controller, table, segments, undefined, request, budget);
}

/**
 * {@link walk} from a controller whose route table is already known (where fast resolution
 * reached a `_route`); internal to this package.
 *
 * @example
 * ```ts
 * walkInside(books, routeTableOf(books)!, ['7'], request);
 * ```
 */
export function walkInside(
  controller: object,
  table: RouteTable,
  segments: readonly string[],
  request: Request,
  budget: WalkBudget = { lookups: 0, routes: 0 },
): Awaitable<Resolution | undefined> {
  return walkFrom(controller, table, segments, undefined, request, budget);
}

// The walk loop from the start of `segs` on `current`; `fallbacks` are the frames collected so far
// (a `_route` that hands over to another controller continues the same walk).
function walkFrom(
  current: object,
  table: RouteTable,
  segs: readonly string[],
  fallbacks: Fallback[] | undefined,
  request: Request,
  budget: WalkBudget,
): Awaitable<Resolution | undefined> {
  let pos = 0;
  for (;;) {
    const segment = pos < segs.length ? segs[pos]! : undefined;
    if (table.index !== undefined) {
      if (segment === undefined) return { controller: current, table, fn: table.index, remainder: [], canonical: true };
      if (segment === '') {
        const rest = nonEmpty(segs, pos + 1);
        if (fitsRequest(table.index, rest, table, request)) return { controller: current, table, fn: table.index, remainder: rest, canonical: false };
      }
    }
    if (table._default !== undefined) (fallbacks ??= []).push({ controller: current, table, segments: segs, pos, special: '_default', depth: budget.trail?.length ?? 0 });
    if (table._lookup !== undefined) (fallbacks ??= []).push({ controller: current, table, segments: segs, pos, special: '_lookup', depth: budget.trail?.length ?? 0 });
    if (table._route !== undefined) {
      if (++budget.routes > MAX_SEGMENTS) return undefined;
      const rest = segs.slice(pos);
      // A guarded controller's checks come before its `_route` runs.
      const due = budget.checked === undefined ? undefined : runDueChecks(budget, request, undefined);
      if (due !== undefined) {
        const from = current;
        const frames = fallbacks;
        return due.then(() => routeThen(from, table, rest, frames, request, budget));
      }
      return routeThen(current, table, rest, fallbacks, request, budget);
    }
    if (segment === undefined) break;
    const entry = table.find(segment);
    if (entry === undefined) {
      if (fallbacks === undefined && table.index !== undefined) {
        const handled = genericIndexFor(current, table, table.index, nonEmpty(segs, pos), request);
        if (handled !== undefined) return handled;
      }
      break;
    }
    if (entry.kind === 'method') {
      const rest = nonEmpty(segs, pos + 1);
      if (fitsRequest(entry.fn, rest, table, request)) return { controller: current, table, fn: entry.fn, remainder: rest, canonical: false };
      break;
    }
    const child = entry.table();
    if (child === null) break;
    current = entry.value;
    table = child;
    pos++;
    budget.trail?.push(current);
  }
  return fallbacks === undefined ? undefined : fallBack(fallbacks, request, budget);
}

// Calls `_route` and goes on with its answer.
function routeThen(
  current: object,
  table: RouteTable,
  rest: readonly string[],
  fallbacks: Fallback[] | undefined,
  request: Request,
  budget: WalkBudget,
): Awaitable<Resolution | undefined> {
  // The `_route`'s shortcut, when it has one and the answer is a method of `current` itself: the
  // same Resolution followRoute would make, without checking and following a routed pair.
  const direct = directRouteOf(table);
  if (direct !== undefined) {
    const found = direct(current, table, rest, request);
    if (found !== undefined) return found;
  }
  const next = callRoute(current, table, rest, request);
  if (next instanceof Promise) return next.then((routed) => followRoute(routed, current, table, rest, fallbacks, request, budget));
  return followRoute(next, current, table, rest, fallbacks, request, budget);
}

// What a `_route` answer means for the walk: a function answers, a controller continues the walk
// inside it, nothing (or no progress) falls back to `_lookup`/`_default`.
function followRoute(
  next: [object | Function | RoutedMethod, readonly string[]] | undefined,
  current: object,
  table: RouteTable,
  rest: readonly string[],
  fallbacks: Fallback[] | undefined,
  request: Request,
  budget: WalkBudget,
): Awaitable<Resolution | undefined> {
  if (next !== undefined) {
    const target = next[0];
    if (typeof target === 'function' || isRoutedMethod(target)) {
      // Another controller's method runs on that controller, entered as if by name: the checks
      // between apply (see routed-owner.ts).
      const fn = typeof target === 'function' ? target : target.fn;
      const owner = routedOwner(current, table, target);
      if (owner === undefined) return { controller: current, table, fn, remainder: nonEmpty(next[1], 0), canonical: false };
      if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
      if (budget.trail !== undefined) for (const entered of owner.path) budget.trail.push(entered);
      return { controller: owner.controller, table: owner.table, fn, remainder: nonEmpty(next[1], 0), canonical: false };
    }
    if (next[0] !== current || !sameSegments(next[1], rest)) {
      if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
      budget.trail?.push(next[0]);
      return walkFrom(next[0], routeTableOf(next[0])!, next[1], fallbacks, request, budget);
    }
  }
  return fallbacks === undefined ? undefined : fallBack(fallbacks, request, budget);
}

function fallBack(fallbacks: Fallback[], request: Request, budget: WalkBudget): Awaitable<Resolution | undefined> {
  for (let frame = fallbacks.pop(); frame !== undefined; frame = fallbacks.pop()) {
    if (budget.trail !== undefined) {
      budget.trail.length = frame.depth;
      if (budget.checked !== undefined && budget.checked > frame.depth) budget.checked = frame.depth;
      if (budget.openedAt !== undefined) budget.openedAt = budget.openedAt.filter((at) => at < frame.depth);
    }
    const rest = frame.segments.slice(frame.pos);
    if (frame.special === '_default') {
      return { controller: frame.controller, table: frame.table, fn: frame.table._default!, remainder: nonEmpty(rest, 0), canonical: false };
    }
    if (!rest.some((s) => s !== '')) continue; // a _lookup must consume at least one segment
    // One that cannot take these segments is no match (as Pecan, whose call fails): the next frame, then 404.
    if (!lookupTakes(frame.table._lookup!, rest)) continue;
    if (++budget.lookups > MAX_LOOKUPS) return undefined;
    // A guarded controller's checks come before its `_lookup` runs — unless it is opened
    // (`@unlocked`): then what it returns is entered as an opened child is. Its controller is not
    // marked checked: when the lookup finds nothing, a `_default` or a dead end there still checks.
    const due = budget.checked === undefined || isOpened(frame.table._lookup!) ? undefined : runDueChecks(budget, request, undefined);
    if (due !== undefined) {
      const at = frame;
      return due.then(() => {
        const found = lookupThen(at, rest, fallbacks, request, budget);
        return found === NEXT_FRAME ? fallBack(fallbacks, request, budget) : found;
      });
    }
    const found = lookupThen(frame, rest, fallbacks, request, budget);
    if (found !== NEXT_FRAME) return found;
  }
  return undefined;
}

// Calls a frame's `_lookup` and goes on with its answer (NEXT_FRAME: try the next frame out).
function lookupThen(
  frame: Fallback,
  rest: readonly string[],
  fallbacks: Fallback[],
  request: Request,
  budget: WalkBudget,
): Awaitable<Resolution | undefined> | typeof NEXT_FRAME {
  const result: unknown = frame.table._lookup!.apply(frame.controller, rest);
  if (isThenable(result)) {
    return Promise.resolve(result).then((settled) => {
      const found = followLookup(settled, frame, rest, fallbacks, request, budget);
      return found === NEXT_FRAME ? fallBack(fallbacks, request, budget) : found;
    });
  }
  return followLookup(result, frame, rest, fallbacks, request, budget);
}

// Marks a `_lookup` that found nothing: the next frame out is tried.
const NEXT_FRAME = Symbol('next frame');

function followLookup(
  result: unknown,
  frame: Fallback,
  rest: readonly string[],
  fallbacks: Fallback[],
  request: Request,
  budget: WalkBudget,
): Awaitable<Resolution | undefined> | typeof NEXT_FRAME;
function followLookup(result: unknown, frame: Fallback, rest: readonly string[], fallbacks: Fallback[], request: Request, budget: WalkBudget): unknown {
  if (result === undefined || result === null) return NEXT_FRAME;
  if (!Array.isArray(result) || (result.length > 1 && !isSegmentList(result[1]))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_LOOKUP_RESULT', frame.table.owner, describeValue(result));
  }
  const next: unknown = result[0];
  const remainder: readonly string[] = result.length > 1 ? (result[1] as string[]) : [];
  // Not a controller (an unknown id), or no progress (it would loop): not found. A different
  // controller may take as many segments as the lookup got (a path rewriter: Ironic's root pushes
  // `chassis` back for its v1 controller); MAX_LOOKUPS still ends a ring of such lookups.
  if (!isController(next) || remainder.length > rest.length || (remainder.length === rest.length && next === frame.controller)) return undefined;
  if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
  if (budget.trail !== undefined) {
    if (budget.checked !== undefined && isOpened(frame.table._lookup!)) (budget.openedAt ??= []).push(budget.trail.length);
    budget.trail.push(next);
  }
  return walk(next, remainder, request, budget);
}

// `_route`'s answer checked, at once or as a promise when `_route` returned one.
function callRoute(
  controller: object,
  table: RouteTable,
  rest: readonly string[],
  request: Request,
): Awaitable<[object | Function | RoutedMethod, readonly string[]] | undefined> {
  const result: unknown = table._route!.call(controller, rest, request);
  if (isThenable(result)) return Promise.resolve(result).then((settled) => checkRouted(settled, table));
  return checkRouted(result, table);
}

function checkRouted(result: unknown, table: RouteTable): [object | Function | RoutedMethod, readonly string[]] | undefined {
  if (result === undefined || result === null) return undefined;
  if (!Array.isArray(result) || (result.length > 1 && !isSegmentList(result[1]))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_RESULT', table.owner, describeValue(result));
  }
  const target: unknown = result[0];
  // A checked pair is used as it is (the walk only reads it); anything else is normalized.
  const pair = result.length === 2 ? (result as [object | Function, string[]]) : undefined;
  const remainder = result.length > 1 ? (result[1] as string[]) : [];
  // Checked first: routeTo()'s answer is an object, but never a controller.
  if (isRoutedMethod(target)) return pair ?? [target, remainder];
  if (typeof target === 'function') {
    if (!exposureOf(target)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_RESULT', table.owner, `${describeValue(target)}, which is not exposed`);
    return pair ?? [target, remainder];
  }
  return isController(target) ? (pair ?? [target, remainder]) : undefined;
}

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

// Pecan's last resort, when no member matches and nothing on the way has _lookup or _default:
// a generic index with a when() handler for the request's method takes the segments as its
// arguments (`POST /5` → `index_post('5')`); GET stays a 404 unless a GET handler is attached.
function genericIndexFor(controller: object, table: RouteTable, index: Function, rest: string[], request: Request): Resolution | undefined {
  if (!exposureOf(index)?.generic) return undefined;
  const handler = table.handlerFor(index, request.method);
  if (handler === undefined || !fits(handler, rest, request)) return undefined;
  return { controller, table, fn: index, remainder: rest, canonical: false };
}

// The path arguments of a generic method go to the handler of the request's method, so they are
// checked against that handler's parameters; with no handler for the method, the 405 decides.
function fitsRequest(fn: Function, rest: readonly string[], table: RouteTable, request: Request): boolean {
  if (rest.length === 0) return true;
  if (!exposureOf(fn)?.generic) return fits(fn, rest, request);
  const handler = genericHandler(table, fn, request.method);
  return handler === undefined || fits(handler, rest, request);
}

// A `_lookup` takes the segments when it has a parameter for each one that is not empty (or a
// rest parameter) and no required parameter is left without one. Read once per function; one
// that declares no parameter (it may read `arguments`) or whose source cannot be read (native,
// bound) takes anything.
function lookupTakes(lookup: Function, segments: readonly string[]): boolean {
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

function nonEmpty(segments: readonly string[], from: number): string[] {
  // Usually no segment is empty: one exact-size copy instead of a grown array.
  if (segments.indexOf('', from) === -1) return segments.slice(from);
  const out: string[] = [];
  for (let i = from; i < segments.length; i++) if (segments[i] !== '') out.push(segments[i]!);
  return out;
}

function isSegmentList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === 'string');
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
