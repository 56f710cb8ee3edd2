// The static part of a controller tree, compiled once per root: every path that names controllers
// by plain segments and ends at an exposed method (or at an index after a trailing slash), with
// what answers it and the controllers on its way. Fast resolution answers such a path with one
// `Map.get`, whatever its depth; only the dynamic points (`_route`, `_lookup`, `_default`, path
// arguments, escapes) still walk.
import { MAX_SEGMENTS } from './path.ts';
import { routeTableOf } from './controller-tables.ts';
import { isPlainSegment, type RouteTable } from './route-table.ts';
import type { Resolution } from './resolution.ts';

/**
 * A static path of the plan: what answers it, and the controllers entered on the way from the
 * root (the root left out), for the guards' checks and recorded walks.
 *
 * @example
 * ```ts
 * const planned = planOf(root).get('/catalog/books/bestsellers');
 * planned?.found.fn === Books.prototype.bestsellers; // true
 * ```
 */
export interface PlannedPath {
  readonly found: Resolution;
  readonly trail: readonly object[];
}

/** Most paths compiled per root: a tree with more (or a cycle of children) walks the rest, segment by segment. */
export const MAX_PLANNED_PATHS = 4096;

const plans = new WeakMap<object, ReadonlyMap<string, PlannedPath>>();
const NO_REMAINDER: readonly string[] = Object.freeze([]);

/**
 * The static paths of the tree under `root` (compiled on first use, then kept: route tables are
 * made once per controller and never change, so neither does what a static path reaches). The
 * rules are fast resolution's (`resolve.ts`): a path of plain segments (printable ASCII without `%`
 * or `/`) through controllers without `_route`; an exposed method with or without one trailing
 * slash; an index with its trailing slash (without it, the walk's canonical redirect answers).
 * At most {@link MAX_SEGMENTS} segments, the trailing empty one counted, as `splitPath` counts.
 *
 * @example
 * ```ts
 * planOf(new Root()).get('/hello')?.found.fn; // Root.prototype.hello
 * ```
 */
export function planOf(root: object): ReadonlyMap<string, PlannedPath> {
  let plan = plans.get(root);
  if (plan === undefined) plans.set(root, (plan = compilePlan(root)));
  return plan;
}

function compilePlan(root: object): Map<string, PlannedPath> {
  const plan = new Map<string, PlannedPath>();
  const table = routeTableOf(root);
  if (table !== undefined) addController(plan, root, table, '', [root], 0);
  return plan;
}

// Adds the paths of `controller`, reached by `prefix` (its `depth` segments) through `way` (the
// controllers from the root to it). Depth first, so a cap cuts whole subtrees.
function addController(plan: Map<string, PlannedPath>, controller: object, table: RouteTable, prefix: string, way: readonly object[], depth: number): void {
  const trail = Object.freeze(way.slice(1));
  // A `_route` decides everything below its controller: nothing there is static.
  if (table._route !== undefined || plan.size >= MAX_PLANNED_PATHS) return;
  if (table.index !== undefined && depth + 1 <= MAX_SEGMENTS) add(plan, `${prefix}/`, { controller, table, fn: table.index, remainder: NO_REMAINDER, canonical: false }, trail);
  if (depth + 1 > MAX_SEGMENTS) return;
  for (const [segment, entry] of table.entries()) {
    if (!isPlainSegment(segment)) continue;
    const path = `${prefix}/${segment}`;
    if (entry.kind === 'method') {
      const found: Resolution = { controller, table, fn: entry.fn, remainder: NO_REMAINDER, canonical: false };
      add(plan, path, found, trail);
      if (depth + 2 <= MAX_SEGMENTS) add(plan, `${path}/`, found, trail);
      continue;
    }
    const child = entry.table();
    // A cycle of children (a controller that holds its parent) would never end: a path through it walks.
    if (child === null || way.includes(entry.value)) continue;
    addController(plan, entry.value, child, path, [...way, entry.value], depth + 1);
  }
}

function add(plan: Map<string, PlannedPath>, path: string, found: Resolution, trail: readonly object[]): void {
  if (plan.size < MAX_PLANNED_PATHS) plan.set(path, Object.freeze({ found: Object.freeze(found), trail }));
}
