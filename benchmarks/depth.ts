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
}

/** The depth benchmark's result: rows, the slope (ns per extra segment) of each series, and memory. */
export interface DepthResult {
  rows: DepthRow[];
  slope: { resolvePath: number; walk: number; findMyWay: number };
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
function heapGrowth(root: object, path: string): number {
  const gc = collector();
  // The first lookup builds the chain's route tables (kept for good, once): not a per-lookup cost.
  void resolvePath(root, path, REQUEST);
  gc();
  const before = process.memoryUsage().heapUsed;
  // A static path resolves without a promise: nothing to await.
  for (let i = 0; i < MEMORY_CALLS; i++) void resolvePath(root, path, REQUEST);
  gc();
  return process.memoryUsage().heapUsed - before;
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
  return { root: controller, path: `/${names.join('/')}` };
}

const WARMUP_CALLS = 20_000;

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
    // root's route plan, compiled from the controller tree (plan.ts). What is left growing with
    // depth is reading the path itself (the `%` test, the key's comparison). A guarded app also
    // copies the path's controllers into its trail: one bulk push, ~4 ns per segment more.
    const a = await measure(() => resolvePath(root, path, REQUEST), { min_cpu_time });
    const b = await measure(async () => walk(root, splitPath(path), REQUEST), { min_cpu_time });
    const c = await measure(() => router.find('GET', path), { min_cpu_time });
    const row = { depth, resolvePath: a.avg, walk: b.avg, findMyWay: c.avg };
    rows.push(row);
    options.log?.(`depth ${String(depth).padStart(2)}: resolvePath ${row.resolvePath.toFixed(0)} ns, walk ${row.walk.toFixed(0)} ns, find-my-way ${row.findMyWay.toFixed(0)} ns`);
  }
  const slopeOf = (pick: (row: DepthRow) => number) => linearFit(rows.map((row) => [row.depth, pick(row)] as const)).slope;
  const deepest = chain(DEPTHS[DEPTHS.length - 1]!);
  const heapGrowthBytes = heapGrowth(deepest.root, deepest.path);
  options.log?.(`heap growth after ${MEMORY_CALLS.toLocaleString('en-US')} lookups at depth ${DEPTHS[DEPTHS.length - 1]}: ${(heapGrowthBytes / 1024).toFixed(1)} KiB`);
  return {
    rows,
    slope: { resolvePath: slopeOf((r) => r.resolvePath), walk: slopeOf((r) => r.walk), findMyWay: slopeOf((r) => r.findMyWay) },
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
