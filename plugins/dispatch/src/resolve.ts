import type { Request } from '@hickory/core';
import type { Awaitable } from './awaitable.ts';
import { directRouteOf } from './direct-route.ts';
import { MAX_SEGMENTS, splitPath } from './path.ts';
import { planOf, RoutePlan } from './plan.ts';
import { routeTableOf } from './controller-tables.ts';
import type { RouteTable } from './route-table.ts';
import { walk, type Resolution, type WalkBudget } from './walk.ts';

const NO_REMAINDER: readonly string[] = Object.freeze([]);

/**
 * The resolve stage: resolves a raw request path from `root`, with the same answer as
 * `walk(root, splitPath(path))`. A static path (plain segments naming controllers, ending at an
 * exposed method or at an index after a trailing slash) is one look-up in the root's route plan
 * (`plan.ts`, compiled once); one the plan does not hold (past its cap) is resolved in place
 * against the cached route tables, without a string per segment; anything else
 * (escapes, a miss that needs `_lookup`/`_default`, arguments in the path, a canonical redirect)
 * goes on to the walk, and a `_route` reached with nothing to fall back on above it is walked
 * from there.
 *
 * @example
 * ```ts
 * const found = await resolvePath(root, '/catalog/books/bestsellers', request);
 * ```
 */
export function resolvePath(root: object, path: string, request: Request, budget: WalkBudget = { lookups: 0, routes: 0 }): Awaitable<Resolution | undefined> {
  const trail = budget.trail;
  if (root !== lastRoot) {
    lastRoot = root;
    lastRootTable = routeTableOf(root);
    lastPlan = planOf(root);
  }
  // A static path: one look-up, at any depth (the plan's trail is what the walk would have entered).
  // Asked first: the plan's paths start with `/` and hold no `%`, so a hit needs neither test below.
  const planned = lastPlan.get(path);
  if (planned !== undefined) {
    // One bulk push: the array grows once, not once per controller.
    if (trail !== undefined) trail.push(...planned.trail);
    return planned.found;
  }
  if (path.charCodeAt(0) !== 47 /* / */ || path.includes('%')) return walk(root, splitPath(path), request, budget);
  let table = lastRootTable;
  let controller = root;
  let start = 1;
  let fallbacks = false;
  // Set where fast resolution cannot finish the path: the full walk takes it from the root.
  let unfinished = false;
  let count = 1;
  for (; table !== undefined && table._route === undefined && count <= MAX_SEGMENTS; count++) {
    if (table._lookup !== undefined || table._default !== undefined) fallbacks = true;
    if (start === path.length) {
      // A trailing slash: the index, when there is one (anything else takes the full walk).
      if (table.index !== undefined) return { controller, table, fn: table.index, remainder: NO_REMAINDER, canonical: false };
      unfinished = true;
      break;
    }
    const match = table.matchAt(path, start);
    if (match === undefined) {
      unfinished = true;
      break;
    }
    const end = start + match.segment.length;
    const method = match.method;
    if (method !== undefined) {
      if (end >= path.length - 1) return { controller, table, fn: method, remainder: NO_REMAINDER, canonical: false };
      unfinished = true;
      break;
    }
    const child = end === path.length ? null : match.child!.table();
    if (child === null) {
      unfinished = true;
      break;
    }
    controller = match.child!.value;
    table = child;
    start = end + 1;
    trail?.push(controller);
  }
  if (!unfinished && table !== undefined && table._route !== undefined && !fallbacks && count <= MAX_SEGMENTS) {
    // A `_route` controller with no `_lookup`/`_default` above it: the full walk would arrive here
    // with nothing to fall back on, so it goes on from here (within the same segment limit).
    const rest = splitPath(path.slice(start - 1), MAX_SEGMENTS - (count - 1));
    // With no check due and a first segment that is not the index's, the walk would call the
    // `_route`'s shortcut (REST's plan) first thing: asked here, it spares the walk's state, and
    // the walk is told when it gave nothing.
    const direct = budget.checked === undefined && rest.length > 0 && rest[0] !== '' ? directRouteOf(table) : undefined;
    if (direct !== undefined) return direct(controller, table, rest, request) ?? walk(controller, rest, request, budget, table, true);
    return walk(controller, rest, request, budget, table);
  }
  // The full walk, which records its own way from the root.
  if (trail !== undefined) trail.length = 1;
  return walk(root, splitPath(path), request, budget);
}

// The root's table and plan, remembered: the root is the same object on every request.
let lastRoot: object | undefined;
let lastRootTable: RouteTable | undefined;
let lastPlan: RoutePlan = new RoutePlan();
