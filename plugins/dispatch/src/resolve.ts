import type { Request } from '@hickory/core';
import { MAX_SEGMENTS, splitPath } from './path.ts';
import { routeTableOf, type RouteTable } from './route-table.ts';
import { walkDirect, walkInside, type Resolution, type WalkBudget } from './walk.ts';

const NO_REMAINDER: readonly string[] = Object.freeze([]);

/**
 * Resolves a raw request path from `root`: the same answer as `walk(root, splitPath(path))`,
 * with a fast path for the common case — a path without escapes that names controllers and ends
 * at an exposed method (or at an index after a trailing slash) — which compares segments in place
 * instead of making a string per segment. Anything else (escapes, `_route`, a miss that needs
 * `_lookup`/`_default`, arguments in the path, a canonical redirect) takes the full walk.
 *
 * @example
 * ```ts
 * const found = await resolvePath(root, '/catalog/books/bestsellers', request);
 * ```
 */
export function resolvePath(root: object, path: string, request: Request, budget?: WalkBudget): Resolution | undefined | Promise<Resolution | undefined> {
  const trail = budget?.trail;
  const found = staticResolve(root, path, trail);
  if (found !== HANDOFF) {
    if (found !== undefined) return found;
    // The full walk records its own way from the root.
    if (trail !== undefined) trail.length = 1;
    return walkDirect(root, splitPath(path), request, budget);
  }
  // A `_route` controller reached with no `_lookup`/`_default` above it: the full walk would
  // arrive there with nothing to fall back on, so it goes on from there (same segment limit).
  const { controller, table, start, depth } = handoff;
  handoff.controller = undefined;
  handoff.table = undefined;
  return walkInside(controller!, table!, splitPath(path.slice(start - 1), MAX_SEGMENTS - depth), request, budget);
}

// Where the fast path stopped at a `_route`; read at once by resolvePath (no request in between).
const HANDOFF = Symbol('handoff');
const handoff: { controller: object | undefined; table: RouteTable | undefined; start: number; depth: number } = {
  controller: undefined,
  table: undefined,
  start: 0,
  depth: 0,
};

// The root's table, remembered: the root is the same object on every request.
let lastRoot: object | undefined;
let lastRootTable: RouteTable | undefined;

// `trail` (when walks are recorded) gets each controller entered after the root.
function staticResolve(root: object, path: string, trail: object[] | undefined): Resolution | undefined | typeof HANDOFF {
  if (path.charCodeAt(0) !== 47 /* / */ || path.includes('%')) return undefined;
  let table: RouteTable | undefined;
  if (root === lastRoot) table = lastRootTable;
  else {
    table = routeTableOf(root);
    lastRoot = root;
    lastRootTable = table;
  }
  let controller = root;
  let start = 1;
  let fallbacks = false;
  let count = 1;
  for (; table !== undefined && table.route === undefined && count <= MAX_SEGMENTS; count++) {
    if (table.lookup !== undefined || table.default !== undefined) fallbacks = true;
    if (start === path.length) {
      // A trailing slash: the index, when there is one (anything else takes the full walk).
      return table.index !== undefined ? { controller, table, fn: table.index, remainder: NO_REMAINDER, canonical: false } : undefined;
    }
    const match = table.matchAt(path, start);
    if (match === undefined) return undefined;
    const end = start + match.segment.length;
    const method = match.method;
    if (method !== undefined) {
      return end >= path.length - 1 ? { controller, table, fn: method, remainder: NO_REMAINDER, canonical: false } : undefined;
    }
    if (end === path.length) return undefined;
    const entry = match.child!;
    const child = entry.table();
    if (child === null) return undefined;
    controller = entry.value;
    table = child;
    start = end + 1;
    trail?.push(controller);
  }
  if (table === undefined || table.route === undefined || fallbacks || count > MAX_SEGMENTS) return undefined;
  handoff.controller = controller;
  handoff.table = table;
  handoff.start = start;
  handoff.depth = count - 1;
  return HANDOFF;
}
