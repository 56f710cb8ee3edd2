// Dispatch cost against path depth, in process: Hickory's `resolvePath` (what the dispatch plugin
// calls per request: a static path is found in the route plan compiled from the controller tree),
// and its full `walk`, against find-my-way's `find` on the same static path.
// Run alone: node --conditions=source --import tsx benchmarks/depth.ts [--quick]
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import FindMyWay from 'find-my-way';
import { measure } from 'mitata';
import type { Request } from '@hickory/core';
import { expose } from '@hickory/dispatch';
import { resolvePath, splitPath, walk } from '@hickory/dispatch/kit';
import { linearFit } from './stats.ts';

/** Depths measured (segments in the path, the last one an exposed method). */
export const DEPTHS: readonly number[] = [1, 2, 4, 8, 16, 32, 64];

/** ns per lookup at one depth. */
export interface DepthRow {
  depth: number;
  resolvePath: number;
  walk: number;
  findMyWay: number;
  /** `resolvePath` on a path string made anew for each lookup, as a request's parser makes it (making it included). */
  resolveFresh?: number;
  /** find-my-way's `find` on the same fresh path. */
  findFresh?: number;
}

/** The depth benchmark's result: rows, the slope (ns per extra segment) of each series, and memory. */
export interface DepthResult {
  rows: DepthRow[];
  slope: { resolvePath: number; walk: number; findMyWay: number; resolveFresh?: number; findFresh?: number };
  /** Heap used after `calls` lookups at the deepest depth, less before (both after a full GC). */
  memory?: { calls: number; heapGrowthBytes: number };
}

/** Lookups of the deepest path between the two heap readings. */
export const MEMORY_CALLS = 200_000;

// A full collection on demand without starting Node with --expose-gc.
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

// Whether routing keeps anything per lookup (a cache that grows with requests, say): the heap
// after many lookups of the deepest path, against before, each after a full collection.
// The least of three tries: what a lookup keeps grows in every try, while a try can also catch
// the heap's own movements (code compiled meanwhile, a page of metadata), ±150 KiB either way.
function heapGrowth(root: object, path: string): number {
  const gc = collector();
  // The first lookup builds the chain's route tables (kept for good, once): not a per-lookup cost.
  void resolvePath(root, path, REQUEST);
  const tries: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    // A static path resolves without a promise: nothing to await.
    for (let i = 0; i < MEMORY_CALLS; i++) void resolvePath(root, path, REQUEST);
    gc();
    gc();
    tries.push(process.memoryUsage().heapUsed - before);
  }
  return Math.min(...tries);
}

// A chain of controller classes, one per level, as an application writes them:
// /s1/s2/…/leaf where each level holds the next one in a property and the last has `leaf()`.
function chain(depth: number): { root: object; path: string } {
  class Leaf {
    leaf() {
      return 'leaf';
    }
  }
  expose()(Leaf.prototype.leaf);
  let controller: object = new Leaf();
  const names = ['leaf'];
  for (let level = depth - 1; level >= 1; level--) {
    const child = controller;
    const name = `s${level}`;
    const Level = class {
      constructor() {
        (this as Record<string, unknown>)[name] = child;
      }
    };
    controller = new Level();
    names.unshift(name);
  }
  // As a literal in the source is: one flat string, V8's shared copy (a property name always is).
  return { root: controller, path: Object.keys({ [`/${names.join('/')}`]: true })[0]! };
}

const WARMUP_CALLS = 20_000;

// The text of `path` in a new string whose hash V8 has not computed yet, as a request's path is
// (the concatenation is flattened into a new copy of the text by the slice).
function fresh(path: string): string {
  return FRESH_PREFIX.concat(path).slice(1);
}
const FRESH_PREFIX = '_';

// Routing a static path reads nothing from the request.
const REQUEST = {} as Request;

/**
 * Measures every depth with mitata (`minCpuTimeMs` per series and depth).
 *
 * @example
 * ```ts
 * const { rows, slope } = await runDepth({ minCpuTimeMs: 300 });
 * ```
 */
export async function runDepth(options: { minCpuTimeMs: number; log?(line: string): void }): Promise<DepthResult> {
  const min_cpu_time = options.minCpuTimeMs * 1e6;
  const rows: DepthRow[] = [];
  for (const depth of DEPTHS) {
    const { root, path } = chain(depth);
    const router = FindMyWay();
    router.on('GET', path, () => 'leaf');
    // Each side must find the leaf, or the numbers mean nothing.
    const direct = await resolvePath(root, path, REQUEST);
    const walked = await walk(root, splitPath(path), REQUEST);
    if (direct?.remainder.length !== 0 || walked?.remainder.length !== 0) throw new Error(`depth ${depth}: hickory did not resolve ${path}`);
    if (!router.find('GET', path)) throw new Error(`depth ${depth}: find-my-way did not find ${path}`);

    // Warm each function up first, so that the first depth does not pay for compilation.
    for (let i = 0; i < WARMUP_CALLS; i++) {
      void resolvePath(root, path, REQUEST);
      await walk(root, splitPath(path), REQUEST);
      router.find('GET', path);
    }
    // resolvePath keeps no memory of the paths it was asked: a static path is one look-up in the
    // root's route plan, compiled from the controller tree (plan.ts), whose keys are V8's shared
    // copies of their text, so `path` (a literal, shared too) matches by identity at any depth. A
    // guarded app also copies the path's controllers into its trail: one bulk push, ~4 ns per segment more.
    const a = await measure(() => resolvePath(root, path, REQUEST), { min_cpu_time });
    const b = await measure(async () => walk(root, splitPath(path), REQUEST), { min_cpu_time });
    const c = await measure(() => router.find('GET', path), { min_cpu_time });
    // A request's path is a new string each time: V8 hashes it and compares it with the key
    // character by character, as find-my-way reads it character by character. `fresh` makes one
    // per lookup; both series pay for making it alike.
    const d = await measure(() => resolvePath(root, fresh(path), REQUEST), { min_cpu_time });
    const e = await measure(() => router.find('GET', fresh(path)), { min_cpu_time });
    const row = { depth, resolvePath: a.avg, walk: b.avg, findMyWay: c.avg, resolveFresh: d.avg, findFresh: e.avg };
    rows.push(row);
    options.log?.(
      `depth ${String(depth).padStart(2)}: resolvePath ${row.resolvePath.toFixed(0)} ns, walk ${row.walk.toFixed(0)} ns, find-my-way ${row.findMyWay.toFixed(0)} ns; fresh path: resolvePath ${row.resolveFresh.toFixed(0)} ns, find-my-way ${row.findFresh.toFixed(0)} ns`,
    );
  }
  const slopeOf = (pick: (row: DepthRow) => number) => linearFit(rows.map((row) => [row.depth, pick(row)] as const)).slope;
  const deepest = chain(DEPTHS[DEPTHS.length - 1]!);
  const heapGrowthBytes = heapGrowth(deepest.root, deepest.path);
  options.log?.(`heap growth after ${MEMORY_CALLS.toLocaleString('en-US')} lookups at depth ${DEPTHS[DEPTHS.length - 1]}: ${(heapGrowthBytes / 1024).toFixed(1)} KiB`);
  return {
    rows,
    slope: {
      resolvePath: slopeOf((r) => r.resolvePath),
      walk: slopeOf((r) => r.walk),
      findMyWay: slopeOf((r) => r.findMyWay),
      resolveFresh: slopeOf((r) => r.resolveFresh!),
      findFresh: slopeOf((r) => r.findFresh!),
    },
    memory: { calls: MEMORY_CALLS, heapGrowthBytes },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const result = await runDepth({ minCpuTimeMs: quick ? 50 : 300, log: console.log });
  console.log(
    `slope (ns per extra segment): resolvePath ${result.slope.resolvePath.toFixed(1)}, walk ${result.slope.walk.toFixed(1)}, find-my-way ${result.slope.findMyWay.toFixed(1)}`,
  );
}
