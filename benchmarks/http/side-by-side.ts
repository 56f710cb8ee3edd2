// The side-by-side suite: for each pair of servers, both started in processes of their own pinned
// to the same core, and for each route a warm-up of both at once, then rounds in which one wrk
// each loads both at the same time (paired-round.ts). Only one pair's servers run at a time.
import { ROUTE_PATHS, expectedBodies, type RouteName } from '../routes.ts';
import type { ServerProcess } from '../servers/spawn.ts';
import type { VariantName } from '../servers/variants.ts';
import { checkRoute } from './check.ts';
import { startPinned, type HttpSettings } from './load.ts';
import { measurePair, type PairedRound, type Side } from './paired-round.ts';
import { isStarved, roundRatios, spawnFirst } from './paired-stats.ts';
import { runWrk, type WrkSettings } from './wrk.ts';

/**
 * Two servers compared side by side: A, then B (ratios are A/B).
 *
 * @example
 * ```ts
 * const pair: Pair = ['hickory-schema', 'fastify'];
 * ```
 */
export type Pair = readonly [VariantName, VariantName];

/**
 * Settings of the side-by-side suite.
 *
 * @example
 * ```ts
 * const settings: SideBySideSettings = { pairs: [['hickory-schema', 'fastify']], routes: ['hello'], rounds: 7, duration: 5, warmup: 2,
 *   connections: 256, threads: 1, serverCore: 0, clientCores: [1], node: process.execPath, log: console.log };
 * ```
 */
export interface SideBySideSettings extends Omit<HttpSettings, 'frameworks'> {
  /** The pairs, measured one after the other. `warmup` is per pair and route (both at once); `connections` and `threads` are each wrk's; `serverCore` is both servers'. */
  pairs: readonly Pair[];
  /** Run the packages' dist (the default, checked; `buildServers()` first) or, for tests, the sources under tsx. */
  built?: boolean;
}

/**
 * A pair on one route: its rounds, or why it was not measured.
 *
 * @example
 * ```ts
 * const [first] = await runSideBySide(settings);
 * first.skipped ?? summarizePair(first.rounds);
 * ```
 */
export interface PairResult {
  pair: Pair;
  route: RouteName;
  rounds: PairedRound[];
  skipped?: string;
}

const percent = (share: number | undefined, digits = 0) => (share === undefined ? '?' : `${(share * 100).toFixed(digits)}%`);
const count = (n: number) => Math.round(n).toLocaleString('en-US');

// One line per round: both sides' numbers, the ratios, the core's shares and the flags.
function roundLine(pair: Pair, route: RouteName, index: number, total: number, round: PairedRound): string {
  const { cpu, rps } = roundRatios(round);
  const sides = round.sides.map((s, i) => `${pair[i]} ${count(s.rps)} req/s ${s.cpuPerRequest?.toFixed(1) ?? '?'} µs/req share ${percent(s.coreShare)}`);
  const flags = [isStarved(round) ? 'STARVED (server core idle)' : '', round.sides.some((s) => s.failures) ? `${round.sides[0].failures + round.sides[1].failures} FAILED` : ''].filter(Boolean);
  return (
    `round ${index + 1}/${total} ${route.padEnd(6)} ${sides.join(' | ')} | A/B cpu ${cpu?.toFixed(3) ?? '?'} rps ${rps?.toFixed(3) ?? '?'}` +
    ` | core other ${percent(round.serverCore?.other)} idle ${percent(round.serverCore?.idle, 1)} (${pair[round.first]}'s wrk first)${flags.length ? `  ${flags.join(', ')}` : ''}`
  );
}

async function runPair(pair: Pair, settings: SideBySideSettings, expected: Record<RouteName, string>): Promise<PairResult[]> {
  const servers: ServerProcess[] = [];
  try {
    // One after the other: two servers starting at once on one core would each time out the slower.
    for (const name of pair) servers.push(await startPinned(name, { node: settings.node, serverCore: settings.serverCore, built: settings.built ?? true }));
    const results: PairResult[] = [];
    for (const route of settings.routes) {
      const problems = await Promise.all(servers.map(async (s, i) => {
        const problem = s.skipped[route] ?? (await checkRoute(s.port, route, expected[route]));
        return problem === undefined ? undefined : `${pair[i]}: ${problem}`;
      }));
      const skipped = problems.filter(Boolean).join('; ');
      results.push({ pair, route, rounds: [], ...(skipped ? { skipped } : {}) });
      if (skipped) settings.log(`skip ${pair.join(' vs ')} ${route}: ${skipped}`);
    }
    const load: WrkSettings = { connections: settings.connections, threads: settings.threads, duration: settings.duration, cores: settings.clientCores };
    const sides = (route: RouteName): [Side, Side] => [0, 1].map((i) => ({ pid: servers[i]!.pid, url: `http://127.0.0.1:${servers[i]!.port}${ROUTE_PATHS[route]}` })) as [Side, Side];
    const measured = results.filter((r) => !r.skipped);
    settings.log(`${pair.join(' vs ')}: warm-up, ${settings.warmup} s per route, both at once`);
    for (const { route } of measured) await Promise.all(sides(route).map((side) => runWrk(side.url, { ...load, duration: settings.warmup })));
    for (let round = 0; round < settings.rounds; round++) {
      for (const result of measured) {
        const sample = await measurePair(sides(result.route), load, settings.serverCore, spawnFirst(round));
        result.rounds.push(sample);
        settings.log(roundLine(pair, result.route, round, settings.rounds, sample));
      }
    }
    return results;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * Runs the side-by-side suite on one Node line: each pair in turn, every route, the rounds. The
 * servers must have been built (`buildServers()`) unless `built: false`.
 *
 * @example
 * ```ts
 * const results = await runSideBySide({ pairs: [['hickory-schema', 'fastify']], routes: ['hello'], rounds: 7, duration: 5,
 *   warmup: 2, connections: 256, threads: 1, serverCore: 0, clientCores: [1], node: process.execPath, log: console.log });
 * ```
 */
export async function runSideBySide(settings: SideBySideSettings): Promise<PairResult[]> {
  const expected = await expectedBodies();
  const results: PairResult[] = [];
  for (const pair of settings.pairs) results.push(...(await runPair(pair, settings, expected)));
  return results;
}
