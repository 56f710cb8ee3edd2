import type { Request } from '@hickory/core';
import { MAX_SEGMENTS, MAX_SEGMENT_BYTES, splitPath } from './path.ts';
import { routeTableOf } from './route-table.ts';
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

function staticResolve(root: object, path: string): Resolution | undefined {
  if (path.charCodeAt(0) !== 47 /* / */ || path.includes('%')) return undefined;
  let table = routeTableOf(root);
  let controller = root;
  let start = 1;
  for (let count = 1; table !== undefined && table.route === undefined && count <= MAX_SEGMENTS; count++) {
    const slash = path.indexOf('/', start);
    const end = slash === -1 ? path.length : slash;
    if (end === start) {
      // An empty segment: only a trailing slash on a controller with an index is handled here.
      return slash === -1 && table.index !== undefined ? { controller, table, fn: table.index, remainder: NO_REMAINDER, canonical: false } : undefined;
    }
    if (end - start > MAX_SEGMENT_BYTES) return undefined;
    const entry = table.findIn(path, start, end);
    if (entry === undefined) return undefined;
    if (entry.kind === 'method') {
      return slash === -1 || slash === path.length - 1 ? { controller, table, fn: entry.fn, remainder: NO_REMAINDER, canonical: false } : undefined;
    }
    if (slash === -1) return undefined;
    const child = entry.table();
    if (child === null) return undefined;
    controller = entry.value;
    table = child;
    start = slash + 1;
  }
  return undefined;
}
