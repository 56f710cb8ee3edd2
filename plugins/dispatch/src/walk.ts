import type { Request } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import type { Awaitable } from './awaitable.ts';
import { directRouteOf } from './direct-route.ts';
import { dispatchError } from './errors.ts';
import { exposureOf } from './exposure.ts';
import { guardsDeclared, isOpened, runDueChecks, startChecks } from './guards.ts';
import { describeValue } from './names.ts';
import { MAX_SEGMENTS } from './path.ts';
import type { Resolution, WalkBudget } from './resolution.ts';
import { isController, routeTableOf } from './controller-tables.ts';
import type { RouteTable } from './route-table.ts';
import { isRoutedMethod, type RoutedMethod } from './route-to.ts';
import { routedOwner } from './routed-owner.ts';
import { fitsRequest, genericIndexFor, lookupTakes } from './walk-fits.ts';

export type { Resolution, WalkBudget } from './resolution.ts';
export { fits } from './walk-fits.ts';

/** Most `_lookup` hops in one request (more → not found). */
const MAX_LOOKUPS = 16;

// Where a miss may still be answered: a controller passed on the way with `_lookup` or `_default`.
interface Fallback {
  readonly controller: object;
  readonly table: RouteTable;
  readonly segments: readonly string[];
  readonly pos: number;
  readonly special: '_lookup' | '_default';
  // How long the trail was here: falling back to this frame leaves what was entered after it.
  readonly depth: number;
}

// What a `_route` answered, checked: a function (or `routeTo()`'s answer) or a controller, and the segments left.
type Routed = [object | Function | RoutedMethod, readonly string[]] | undefined;

// The walk's phases. Each does at most one thing that may wait (a guard's check, `_route`, `_lookup`).
const DESCEND = 0; // along the segments by route table, from `current` at `pos`
const ROUTE = 1; // `current`'s `_route` takes `rest` (its controller's checks have run)
const FOLLOW_ROUTE = 2; // what `_route` answered (`answer`) decides
const FALL_BACK = 3; // the next `_lookup`/`_default` frame, deepest first
const LOOKUP = 4; // `frame`'s `_lookup` takes `rest` (checks have run)
const FOLLOW_LOOKUP = 5; // what `_lookup` answered (`answer`) decides

// One walk's state: the phase to run next and what it works on.
interface Walker {
  readonly request: Request;
  readonly budget: WalkBudget;
  phase: number;
  current: object;
  table: RouteTable;
  segments: readonly string[];
  pos: number;
  fallbacks: Fallback[] | undefined;
  // The segments `_route` or a `_lookup` is given, the frame of that `_lookup`, and what it answered.
  rest: readonly string[];
  frame: Fallback | undefined;
  answer: unknown;
  // True when the caller asked the first `_route`'s shortcut already (fast resolution), in vain.
  shortcutTried: boolean;
}

// A phase's result when the walk goes on with another phase.
const GO_ON = Symbol('go on');
type Step = Resolution | undefined | typeof GO_ON;

/**
 * The walk stage: walks the controller tree from `controller` along decoded `segments` and says
 * which function answers, or `undefined` when nothing does. Segments select entries of each
 * controller's route table (never a property read); a path ending in `/` or used up on a
 * controller selects `index`; `_route` replaces the routing of its controller; on a miss,
 * `_lookup` then `_default` are tried from the deepest controller outward. `_lookup` must consume
 * a segment or hand the segments to a different controller; at most {@link MAX_LOOKUPS} lookups
 * per request. A guarded controller's checks run before its `_route` or `_lookup` is called.
 * One loop over phases: at once unless a check, `_route` or `_lookup` returns a promise (the loop
 * goes on from there once it settles); a throw from one that answers at once is thrown here, not
 * returned as a rejected promise. `table` is `controller`'s route table when the caller has it
 * already (fast resolution, arriving at a `_route`).
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
  table: RouteTable | undefined = routeTableOf(controller),
  shortcutTried = false,
): Awaitable<Resolution | undefined> {
  if (table === undefined) return undefined;
  return run({ request, budget, phase: DESCEND, current: controller, table, segments, pos: 0, fallbacks: undefined, rest: segments, frame: undefined, answer: undefined, shortcutTried });
}

// The loop over phases. A phase answers the walk (a Resolution, or `undefined`: not found), goes
// on (GO_ON), or gives a promise to wait for (a guard's check, `_route`, `_lookup`): what it
// settles to is the answer the next phase reads, and the loop goes on from there.
function run(walker: Walker): Awaitable<Resolution | undefined> {
  for (;;) {
    let step: Step | Promise<unknown>;
    switch (walker.phase) {
      case DESCEND:
        step = descend(walker);
        break;
      case ROUTE: {
        // The `_route`'s shortcut, when it has one and the answer is a method of `current` itself: the
        // Resolution following its answer would make, without checking and following a routed pair.
        if (walker.shortcutTried) walker.shortcutTried = false;
        else {
          const direct = directRouteOf(walker.table)?.(walker.current, walker.table, walker.rest, walker.request);
          if (direct !== undefined) return direct;
        }
        walker.phase = FOLLOW_ROUTE;
        const answer = callRoute(walker.current, walker.table, walker.rest, walker.request);
        if (!(answer instanceof Promise)) {
          walker.answer = answer;
          continue;
        }
        step = answer;
        break;
      }
      case FOLLOW_ROUTE:
        step = followRoute(walker, walker.answer as Routed);
        break;
      case FALL_BACK:
        step = fallBack(walker);
        break;
      case LOOKUP: {
        walker.phase = FOLLOW_LOOKUP;
        const answer: unknown = walker.frame!.table._lookup!.apply(walker.frame!.controller, walker.rest);
        if (!isThenable(answer)) {
          walker.answer = answer;
          continue;
        }
        step = Promise.resolve(answer);
        break;
      }
      default:
        step = followLookup(walker, walker.answer);
    }
    if (step === GO_ON) continue;
    if (step instanceof Promise) {
      return step.then((settled) => {
        walker.answer = settled;
        return run(walker);
      });
    }
    return step;
  }
}

// Along the segments: an index, a method, or a child per segment; the frames to fall back on are
// collected on the way; a `_route` takes over its controller.
function descend(walker: Walker): Step | Promise<void> {
  const { request, budget } = walker;
  const segs = walker.segments;
  let { current, table, pos } = walker;
  for (;;) {
    const segment = pos < segs.length ? segs[pos]! : undefined;
    if (table.index !== undefined) {
      if (segment === undefined) return { controller: current, table, fn: table.index, remainder: [], canonical: true };
      if (segment === '') {
        const rest = nonEmpty(segs, pos + 1);
        if (rest.length === 0 || fitsRequest(table.index, rest, table, request.method, !request.use_context_locals)) return { controller: current, table, fn: table.index, remainder: rest, canonical: false };
      }
    }
    if (table._default !== undefined) (walker.fallbacks ??= []).push({ controller: current, table, segments: segs, pos, special: '_default', depth: budget.trail?.length ?? 0 });
    if (table._lookup !== undefined) (walker.fallbacks ??= []).push({ controller: current, table, segments: segs, pos, special: '_lookup', depth: budget.trail?.length ?? 0 });
    if (table._route !== undefined) {
      if (++budget.routes > MAX_SEGMENTS) return undefined;
      walker.current = current;
      walker.table = table;
      walker.rest = segs.slice(pos);
      // `_route` is called once the checks due before it ran.
      walker.phase = ROUTE;
      return budget.checked === undefined ? GO_ON : (runDueChecks(budget, request, undefined) ?? GO_ON);
    }
    if (segment === undefined) break;
    const entry = table.find(segment);
    if (entry === undefined) {
      if (walker.fallbacks === undefined && table.index !== undefined) {
        const handled = genericIndexFor(current, table, table.index, nonEmpty(segs, pos), request.method, !request.use_context_locals);
        if (handled !== undefined) return handled;
      }
      break;
    }
    if (entry.kind === 'method') {
      const rest = nonEmpty(segs, pos + 1);
      if (rest.length === 0 || fitsRequest(entry.fn, rest, table, request.method, !request.use_context_locals)) return { controller: current, table, fn: entry.fn, remainder: rest, canonical: false };
      break;
    }
    const child = entry.table();
    if (child === null) break;
    current = entry.value;
    table = child;
    pos++;
    budget.trail?.push(current);
  }
  walker.phase = FALL_BACK;
  return walker.fallbacks === undefined ? undefined : GO_ON;
}

// What a `_route` answer means: a function answers (on the controller that owns it, with the
// checks on the way there), a controller continues the walk inside it with the same frames,
// nothing (or no progress) falls back to `_lookup`/`_default`.
function followRoute(walker: Walker, next: Routed): Step {
  const { current, table, budget } = walker;
  if (next !== undefined) {
    const target = next[0];
    if (typeof target === 'function' || isRoutedMethod(target)) {
      const fn = typeof target === 'function' ? target : target.fn;
      const owner = routedOwner(current, table, target);
      if (owner === undefined) return { controller: current, table, fn, remainder: nonEmpty(next[1], 0), canonical: false };
      if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
      if (budget.trail !== undefined) for (const entered of owner.path) budget.trail.push(entered);
      return { controller: owner.controller, table: owner.table, fn, remainder: nonEmpty(next[1], 0), canonical: false };
    }
    if (target !== current || !sameSegments(next[1], walker.rest)) {
      if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
      budget.trail?.push(target);
      walker.phase = DESCEND;
      walker.current = target;
      walker.table = routeTableOf(target)!;
      walker.segments = next[1];
      walker.pos = 0;
      return GO_ON;
    }
  }
  walker.phase = FALL_BACK;
  return walker.fallbacks === undefined ? undefined : GO_ON;
}

// The next frame out: a `_default` answers; a `_lookup` that can take the segments is called
// once the checks due before it ran — unless it is opened (`@unlocked`): then what it returns is
// entered as an opened child is. Its controller is not marked checked: when the lookup finds
// nothing, a `_default` or a dead end there still checks.
function fallBack(walker: Walker): Step | Promise<void> {
  const { budget } = walker;
  const fallbacks = walker.fallbacks!;
  for (let frame = fallbacks.pop(); frame !== undefined; frame = fallbacks.pop()) {
    if (budget.trail !== undefined) {
      budget.trail.length = frame.depth;
      if (budget.checked !== undefined && budget.checked > frame.depth) budget.checked = frame.depth;
      if (budget.openedAt !== undefined) budget.openedAt = budget.openedAt.filter((at) => at < frame.depth);
    }
    const rest = frame.segments.slice(frame.pos);
    if (frame.special === '_default') return { controller: frame.controller, table: frame.table, fn: frame.table._default!, remainder: nonEmpty(rest, 0), canonical: false };
    if (!rest.some((s) => s !== '')) continue; // a _lookup must consume at least one segment
    if (!lookupTakes(frame.table._lookup!, rest)) continue;
    if (++budget.lookups > MAX_LOOKUPS) return undefined;
    walker.frame = frame;
    walker.rest = rest;
    walker.phase = LOOKUP;
    if (budget.checked === undefined || isOpened(frame.table._lookup!)) return GO_ON;
    return runDueChecks(budget, walker.request, undefined) ?? GO_ON;
  }
  return undefined;
}

// What a `_lookup` answered: nothing tries the next frame out; a controller (with progress) is
// walked anew with the segments it returned, the frames collected so far given up (as a Pecan
// lookup's result is routed on its own); anything else that is no controller is not found.
function followLookup(walker: Walker, result: unknown): Step {
  const frame = walker.frame!;
  const { budget } = walker;
  if (result === undefined || result === null) {
    walker.phase = FALL_BACK;
    return GO_ON;
  }
  if (!Array.isArray(result) || (result.length > 1 && !isSegmentList(result[1]))) {
    throw dispatchError('HICKORY_ERR_DISPATCH_LOOKUP_RESULT', frame.table.owner, describeValue(result));
  }
  const next: unknown = result[0];
  const remainder: readonly string[] = result.length > 1 ? (result[1] as string[]) : [];
  // Not a controller (an unknown id), or no progress (it would loop): not found. A different
  // controller may take as many segments as the lookup got (a path rewriter: Ironic's root pushes
  // `chassis` back for its v1 controller); MAX_LOOKUPS still ends a ring of such lookups.
  if (!isController(next) || remainder.length > walker.rest.length || (remainder.length === walker.rest.length && next === frame.controller)) return undefined;
  if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
  if (budget.trail !== undefined) {
    if (budget.checked !== undefined && isOpened(frame.table._lookup!)) (budget.openedAt ??= []).push(budget.trail.length);
    budget.trail.push(next);
  }
  walker.fallbacks = undefined;
  walker.phase = DESCEND;
  walker.current = next;
  walker.table = routeTableOf(next)!;
  walker.segments = remainder;
  walker.pos = 0;
  return GO_ON;
}

// `_route`'s answer checked, at once or as a promise when `_route` returned one.
function callRoute(controller: object, table: RouteTable, rest: readonly string[], request: Request): Awaitable<Routed> {
  const result: unknown = table._route!.call(controller, rest, request);
  if (isThenable(result)) return Promise.resolve(result).then((settled) => checkRouted(settled, table));
  return checkRouted(result, table);
}

function checkRouted(result: unknown, table: RouteTable): Routed {
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
