// The HTTP suite: every framework in its own child process, loaded by autocannon from this
// process; a warm-up of every route, then rounds in which the frameworks take turns (in a
// fixed pattern, see roundOrder) on each route. The median of the rounds is reported.
import { expectedBodies, ROUTE_PATHS, type RouteName } from '../routes.ts';
import { median } from '../stats.ts';
import { startServer, type ServerProcess } from '../servers/spawn.ts';
import type { Framework } from '../servers/server.ts';
import { checkRoute } from './check.ts';
import { loadOnce, type LoadSample, type LoadSettings } from './autocannon.ts';
import { processCpuMicros } from './process-cpu.ts';

/** Settings of the HTTP suite. */
export interface HttpSettings {
  frameworks: readonly Framework[];
  routes: readonly RouteName[];
  rounds: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per framework and route. */
  warmup: number;
  connections: number;
  pipelining: number;
  /** The Node binary the servers run on (default: this process's). */
  node?: string;
  log(line: string): void;
}

/** One framework on one route. */
export interface HttpCell {
  framework: Framework;
  route: RouteName;
  /** Median over the rounds (absent when skipped or broken). */
  rps?: number;
  p50?: number;
  p99?: number;
  /** Median of the server's CPU time per request (µs), where /proc could tell. */
  cpuPerRequest?: number;
  samples: LoadSample[];
  /** Why the route was not measured. */
  skipped?: string;
  /** Errors, timeouts and non-2xx answers over all measured runs (the numbers are kept, and flagged). */
  failures: number;
}

/**
 * Runs the HTTP suite and gives one cell per framework and route.
 *
 * @example
 * ```ts
 * const cells = await runHttp({ frameworks: ['hickory', 'fastify'], routes: ['hello'], rounds: 3, duration: 5,
 *   warmup: 2, connections: 100, pipelining: 10, log: console.log });
 * ```
 */
export async function runHttp(settings: HttpSettings): Promise<HttpCell[]> {
  const expected = await expectedBodies();
  const servers = new Map<Framework, ServerProcess>();
  const cells = new Map<string, HttpCell>();
  const key = (framework: Framework, route: RouteName) => `${framework} ${route}`;
  try {
    for (const framework of settings.frameworks) servers.set(framework, await startServer(framework, settings.node === undefined ? {} : { node: settings.node }));

    for (const [framework, server] of servers) {
      for (const route of settings.routes) {
        const cell: HttpCell = { framework, route, samples: [], failures: 0 };
        cell.skipped = server.skipped[route] ?? (await checkRoute(server.port, route, expected[route]));
        if (cell.skipped) settings.log(`skip ${framework} ${route}: ${cell.skipped}`);
        cells.set(key(framework, route), cell);
      }
    }
    const runnable = (framework: Framework, route: RouteName) => !cells.get(key(framework, route))!.skipped;
    const url = (framework: Framework, route: RouteName) => `http://127.0.0.1:${servers.get(framework)!.port}${ROUTE_PATHS[route]}`;
    const load: LoadSettings = { connections: settings.connections, pipelining: settings.pipelining, duration: settings.duration };

    settings.log(`warm-up: ${settings.warmup}s per framework and route`);
    for (const route of settings.routes) {
      for (const framework of settings.frameworks) {
        if (runnable(framework, route)) await loadOnce(url(framework, route), { ...load, duration: settings.warmup });
      }
    }

    for (let round = 0; round < settings.rounds; round++) {
      const order = roundOrder(settings.frameworks, round);
      for (const route of settings.routes) {
        for (const framework of order) {
          if (!runnable(framework, route)) continue;
          const pid = servers.get(framework)!.pid;
          const before = processCpuMicros(pid);
          const sample = await loadOnce(url(framework, route), load);
          const after = processCpuMicros(pid);
          if (before !== undefined && after !== undefined && sample.requests > 0) sample.cpuPerRequest = (after - before) / sample.requests;
          cells.get(key(framework, route))!.samples.push(sample);
          settings.log(
            `round ${round + 1}/${settings.rounds} ${route.padEnd(6)} ${framework.padEnd(8)} ${Math.round(sample.rps).toLocaleString('en-US').padStart(9)} req/s  p99 ${sample.p99} ms  load ${sample.loadAverage}${sample.failures ? `  ${sample.failures} FAILED` : ''}`,
          );
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
  for (const cell of cells.values()) {
    if (cell.skipped || cell.samples.length === 0) continue;
    cell.failures = cell.samples.reduce((sum, s) => sum + s.failures, 0);
    cell.rps = median(cell.samples.map((s) => s.rps));
    cell.p50 = median(cell.samples.map((s) => s.p50));
    cell.p99 = median(cell.samples.map((s) => s.p99));
    const cpu = cell.samples.flatMap((s) => (s.cpuPerRequest === undefined ? [] : [s.cpuPerRequest]));
    if (cpu.length) cell.cpuPerRequest = median(cpu);
  }
  return [...cells.values()];
}

// Hickory runs between fastify and node:http, the peers of its targets, so each target's ratio
// compares runs seconds apart (a shared machine's load drifts); those two swap sides every round,
// and the other peers follow in a rotating order.
function roundOrder(frameworks: readonly Framework[], round: number): Framework[] {
  const flank = (['fastify', 'node'] as const).filter((f) => frameworks.includes(f));
  if (round % 2 === 1) flank.reverse();
  const others = frameworks.filter((f) => f !== 'hickory' && !flank.includes(f as 'fastify' | 'node'));
  const rotated = others.map((_, i) => others[(i + round) % others.length]!);
  const middle = frameworks.includes('hickory') ? (['hickory'] as Framework[]) : [];
  return [...flank.slice(0, 1), ...middle, ...flank.slice(1), ...rotated];
}
