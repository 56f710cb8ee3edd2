// The static part of a controller tree, compiled once per root: every path that names controllers
// by plain segments and ends at an exposed method (or at an index after a trailing slash), with
// what answers it and the controllers on its way. Fast resolution answers such a path with one
// look-up (`RoutePlan.get`), whatever its depth; only the dynamic points (`_route`, `_lookup`, `_default`, path
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

const plans = new WeakMap<object, RoutePlan>();
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
export function planOf(root: object): RoutePlan {
  let plan = plans.get(root);
  if (plan === undefined) plans.set(root, (plan = compilePlan(root)));
  return plan;
}

function compilePlan(root: object): RoutePlan {
  const plan = new RoutePlan();
  const table = routeTableOf(root);
  if (table !== undefined) addController(plan, root, table, '', [root], 0);
  return plan;
}

// Longest key the plan holds: its length is part of a bucket's number, which stays a small integer.
const MAX_KEY_LENGTH = 0x3fff;

/**
 * The static paths of one controller tree and what answers each. `get` never hashes the path it is
 * given: a request's path is a new string, and hashing it (V8 reads every character, slowly, to
 * make the hash a `Map` needs) cost more than the rest of the look-up at any depth (fresh paths in
 * `npm run bench`'s depth table: 565 ns at 64 segments, against 260 for find-my-way). Instead the
 * length and two characters pick a bucket of a few keys, and the keys there are compared with the
 * path as strings are compared (lengths, then the characters in bulk).
 *
 * @example
 * ```ts
 * planOf(root).get('/catalog/books/bestsellers')?.found.fn; // Books.prototype.bestsellers
 * ```
 */
export class RoutePlan {
  // Bucket number → [key, planned, key, planned, …].
  private readonly buckets = new Map<number, Array<string | PlannedPath>>();
  private readonly byPath = new Map<string, PlannedPath>();

  /** How many paths the plan holds. */
  get size(): number {
    return this.byPath.size;
  }

  /** What answers `path`, when the plan holds it. */
  get(path: string): PlannedPath | undefined {
    const length = path.length;
    if (length === 0 || length > MAX_KEY_LENGTH) return undefined;
    const bucket = this.buckets.get(bucketOf(path, length));
    if (bucket === undefined) return undefined;
    for (let i = 0; i < bucket.length; i += 2) if (bucket[i] === path) return bucket[i + 1] as PlannedPath;
    return undefined;
  }

  /** Whether the plan holds `path`. */
  has(path: string): boolean {
    return this.byPath.has(path);
  }

  /** The paths, in the order they were compiled. */
  keys(): IterableIterator<string> {
    return this.byPath.keys();
  }

  /** Adds `path` (first one wins: a compile visits each path once). */
  set(path: string, planned: PlannedPath): void {
    if (path.length === 0 || path.length > MAX_KEY_LENGTH || this.byPath.has(path)) return;
    // A key built by concatenation is a tree of pieces that every comparison would walk piece by
    // piece: kept as V8's one flat shared copy of its text instead (a property name always is),
    // which a literal path then matches by identity.
    path = Object.keys({ [path]: true })[0]!;
    this.byPath.set(path, planned);
    const number = bucketOf(path, path.length);
    const bucket = this.buckets.get(number);
    if (bucket === undefined) this.buckets.set(number, [path, planned]);
    else bucket.push(path, planned);
  }
}

// The length, the middle character and the last one, as one small integer (under 2^30: a Smi,
// whose hash is itself): static paths of one tree rarely share all three.
function bucketOf(path: string, length: number): number {
  return length * 0x10000 + ((path.charCodeAt(length >> 1) & 0xff) << 8) + (path.charCodeAt(length - 1) & 0xff);
}

// Adds the paths of `controller`, reached by `prefix` (its `depth` segments) through `way` (the
// controllers from the root to it). Depth first, so a cap cuts whole subtrees.
function addController(plan: RoutePlan, controller: object, table: RouteTable, prefix: string, way: readonly object[], depth: number): void {
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

function add(plan: RoutePlan, path: string, found: Resolution, trail: readonly object[]): void {
  if (plan.size < MAX_PLANNED_PATHS) plan.set(path, Object.freeze({ found: Object.freeze(found), trail }));
}
