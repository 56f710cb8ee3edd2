import type { Request } from '@hickory/core';
import { MAX_SEGMENTS, splitPath } from './path.ts';
import { routeTableOf, type RouteTable } from './route-table.ts';
import { walk, type Resolution } from './walk.ts';

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
export function resolvePath(root: object, path: string, request: Request): Resolution | undefined | Promise<Resolution | undefined> {
  return staticResolve(root, path) ?? walk(root, splitPath(path), request);
}

// The root's table, remembered: the root is the same object on every request.
let lastRoot: object | undefined;
let lastRootTable: RouteTable | undefined;

function staticResolve(root: object, path: string): Resolution | undefined {
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
  for (let count = 1; table !== undefined && table.route === undefined && count <= MAX_SEGMENTS; count++) {
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
  }
  return undefined;
}
