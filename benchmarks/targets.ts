// The targets of the benchmark issues, checked against one run's numbers: the HTTP ones per Node
// line (issue #32: Hickory against fastify on the quiet measure), the dispatch slope once.
import { MEMORY_CALLS, type DepthResult } from './depth.ts';
import type { HttpCell } from './http/load.ts';
import type { LoadSample } from './http/sample.ts';
import { ROUTE_PATHS, type RouteName } from './routes.ts';
import { VARIANTS, type VariantName } from './servers/variants.ts';
import { median } from './stats.ts';

/** One target: the measured value against its goal (`pass` is absent when it could not be measured). */
export interface TargetCheck {
  name: string;
  value?: number;
  /** Lowest and highest per-round ratio: how far the noise moved it. */
  range?: [number, number];
  goal: string;
  pass?: boolean;
  unit: '×' | 'ns' | 'KiB';
}

/** The Hickory servers issue #32 sets goals for, and the routes. */
const HICKORY_SERVERS: readonly VariantName[] = ['hickory-app-schema', 'hickory-schema', 'hickory-app', 'hickory'];
const ROUTES: readonly RouteName[] = ['hello', 'depth8', 'rest'];

/**
 * The ratio goals of a Node line (issue #32): on Node 20, 0.95× fastify's requests/s and at most
 * 1.05× its CPU per request (the same margin the other way); on later lines 1.0× and 1.0×.
 *
 * @example
 * ```ts
 * lineGoals('v26.10.0'); // { rps: 1, cpu: 1 }
 * ```
 */
export function lineGoals(node: string): { rps: number; cpu: number } {
  return /^v?20\./.test(node) ? { rps: 0.95, cpu: 1.05 } : { rps: 1, cpu: 1 };
}

/**
 * Checks every HTTP target that one Node line's run measured. A ratio is the median over the
 * rounds of Hickory's number divided by fastify's in the same round; the range is the lowest
 * and highest of those.
 *
 * @example
 * ```ts
 * for (const t of httpTargets(cells, 'v26.10.0')) console.log(t.name, t.pass);
 * ```
 */
export function httpTargets(cells: readonly HttpCell[], node: string): TargetCheck[] {
  const goals = lineGoals(node);
  const checks: TargetCheck[] = [];
  const check = (name: string, ratio: Ratio | undefined, goal: number, atLeast: boolean) =>
    checks.push({
      name,
      ...ratio,
      goal: `${atLeast ? '≥' : '≤'} ${goal.toFixed(2)}×`,
      pass: ratio === undefined ? undefined : atLeast ? ratio.value >= goal : ratio.value <= goal,
      unit: '×',
    });
  for (const route of ROUTES) {
    for (const self of HICKORY_SERVERS) {
      if (!cells.some((c) => c.framework === self && c.route === route)) continue;
      const who = `${VARIANTS[self].title} / fastify`;
      check(`\`${ROUTE_PATHS[route]}\` requests/s, ${who}`, pairedRatio(cells, route, self, 'fastify', (s) => s.rps), goals.rps, true);
      check(`\`${ROUTE_PATHS[route]}\` CPU per request, ${who}`, pairedRatio(cells, route, self, 'fastify', (s) => s.cpuPerRequest), goals.cpu, false);
    }
  }
  // Only runs that asked for the logging variants (`--frameworks hickory-logger,fastify-logger`) check this one.
  if (cells.some((c) => c.framework === 'hickory-logger')) {
    check('`/hello` requests/s, logger: true, hickory / fastify', pairedRatio(cells, 'hello', 'hickory-logger', 'fastify-logger', (s) => s.rps), 1, true);
  }
  return checks;
}

/** A ratio over the rounds: the median of the per-round ratios, and their lowest and highest. */
export interface Ratio {
  value: number;
  range: [number, number];
}

/**
 * `self`'s number over `peer`'s on `route`, round by round (the two ran minutes apart at most,
 * under the same background load), summed up as a median and a range; `undefined` when either
 * was not measured.
 *
 * @example
 * ```ts
 * pairedRatio(cells, 'hello', 'hickory-app', 'fastify', (s) => s.rps)?.value; // 0.94
 * ```
 */
export function pairedRatio(cells: readonly HttpCell[], route: RouteName, self: VariantName, peer: VariantName, pick: (s: LoadSample) => number | undefined): Ratio | undefined {
  const a = cells.find((c) => c.framework === self && c.route === route);
  const b = cells.find((c) => c.framework === peer && c.route === route);
  if (!a || !b || a.skipped || b.skipped) return undefined;
  const ratios = a.samples.slice(0, b.samples.length).flatMap((s, i) => {
    const [x, y] = [pick(s), pick(b.samples[i]!)];
    return x === undefined || y === undefined || !Number.isFinite(x / y) ? [] : [x / y];
  });
  if (ratios.length === 0) return undefined;
  return { value: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)] };
}

/**
 * The target of the in-process dispatch-depth benchmark (this process's Node, whatever lines the
 * servers ran on).
 *
 * @example
 * ```ts
 * depthTargets(depth)[0]?.pass;
 * ```
 */
export function depthTargets(depth: DepthResult | undefined): TargetCheck[] {
  const slope = depth?.slope.resolvePath;
  const growth = depth?.memory === undefined ? undefined : depth.memory.heapGrowthBytes / 1024;
  // Issue #40's "flat with depth": a 32-segment static path within 10% of a 1-segment one.
  const at = (d: number) => depth?.rows.find((row) => row.depth === d)?.resolvePath;
  const deep = at(32);
  const shallow = at(1);
  const flatness = deep === undefined || shallow === undefined ? undefined : deep / shallow;
  return [
    { name: 'dispatch slope (resolvePath)', value: slope, goal: '≤ 15 ns/segment', pass: slope === undefined ? undefined : slope <= 15, unit: 'ns' },
    { name: 'depth-32 / depth-1 (resolvePath)', value: flatness, goal: '≤ 1.10×', pass: flatness === undefined ? undefined : flatness <= 1.1, unit: '×' },
    {
      name: `heap growth after ${(depth?.memory?.calls ?? MEMORY_CALLS).toLocaleString('en-US')} lookups at depth 64`,
      value: growth,
      goal: '≤ 64 KiB (flat)',
      pass: growth === undefined ? undefined : growth <= 64,
      unit: 'KiB',
    },
  ];
}
