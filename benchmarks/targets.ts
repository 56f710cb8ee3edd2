// The targets of the benchmark issue, checked against one run's numbers: the HTTP ones per Node
// line, the dispatch slope once.
import { MEMORY_CALLS, type DepthResult } from './depth.ts';
import type { LoadSample } from './http/autocannon.ts';
import type { HttpCell } from './http/load.ts';
import { ROUTE_NAMES, type RouteName } from './routes.ts';
import type { Framework } from './servers/server.ts';
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

/**
 * Checks every HTTP target that one Node line's run measured. A ratio is the median over the
 * rounds of Hickory's number divided by its peer's in the same round.
 *
 * @example
 * ```ts
 * for (const t of httpTargets(cells)) console.log(t.name, t.pass);
 * ```
 */
export function httpTargets(cells: readonly HttpCell[]): TargetCheck[] {
  // Ratios are taken per round (the two frameworks ran next to each other, under the same
  // background load) and the median of those is kept: on a shared machine the load drifts
  // between rounds far more than between two neighbouring runs.
  const paired = (route: RouteName, peer: Framework, pick: (s: LoadSample) => number, self: Framework = 'hickory') => {
    const a = cells.find((c) => c.framework === self && c.route === route);
    const b = cells.find((c) => c.framework === peer && c.route === route);
    if (!a || !b || a.rps === undefined || b.rps === undefined) return {};
    const ratios = a.samples.slice(0, b.samples.length).map((s, i) => pick(s) / pick(b.samples[i]!)).filter(Number.isFinite);
    if (ratios.length === 0) return {};
    return { value: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)] as [number, number] };
  };
  const atLeast = (name: string, route: RouteName, peer: Framework, goal: number, self: Framework = 'hickory'): TargetCheck => {
    const { value, range } = paired(route, peer, (s) => s.rps, self);
    return { name, value, range, goal: `≥ ${goal.toFixed(2)}×`, pass: value === undefined ? undefined : value >= goal, unit: '×' };
  };
  const checks = [
    atLeast('GET /hello vs fastify', 'hello', 'fastify', 1.05),
    atLeast('GET /hello vs node:http', 'hello', 'node', 0.85),
    atLeast('depth-8 path vs fastify', 'depth8', 'fastify', 1.05),
    atLeast('REST get_one vs fastify /books/:id', 'rest', 'fastify', 1.0),
  ];
  // Only runs that asked for the logging variants (`--frameworks hickory-logger,fastify-logger`) check this one.
  if (cells.some((c) => c.framework === 'hickory-logger')) {
    checks.push(atLeast('GET /hello, logger: true, vs fastify with logger: true', 'hello', 'fastify-logger', 1.0, 'hickory-logger'));
  }
  for (const route of ROUTE_NAMES) {
    const { value, range } = paired(route, 'fastify', (s) => s.p99);
    checks.push({ name: `p99 ${route} vs fastify`, value, range, goal: '≤ 1.00×', pass: value === undefined ? undefined : value <= 1.0, unit: '×' });
  }
  return checks;
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
  return [
    { name: 'dispatch slope (resolvePath)', value: slope, goal: '≤ 15 ns/segment', pass: slope === undefined ? undefined : slope <= 15, unit: 'ns' },
    {
      name: `heap growth after ${(depth?.memory?.calls ?? MEMORY_CALLS).toLocaleString('en-US')} lookups at depth 64`,
      value: growth,
      goal: '≤ 64 KiB (flat)',
      pass: growth === undefined ? undefined : growth <= 64,
      unit: 'KiB',
    },
  ];
}
