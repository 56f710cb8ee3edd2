// The HTTP suite of `npm run bench`, measured the quiet way: every server runs the packages'
// dist in its own process pinned to one core, wrk loads it from the other cores (keep-alive, no
// pipelining); a warm-up of every server and route, then rounds in which the servers take turns
// on each route, in an order that rotates from round to round. Per run: requests/s, and the
// server's CPU time per request from /proc. The medians of the rounds are reported.
import { sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectedBodies, ROUTE_PATHS, type RouteName } from '../routes.ts';
import { median } from '../stats.ts';
import { startServer, type ServerProcess } from '../servers/spawn.ts';
import { VARIANTS, type Variant, type VariantName } from '../servers/variants.ts';
import { checkRoute } from './check.ts';
import { coreShares, coreTimes, processCpuMicros } from './process-cpu.ts';
import type { LoadSample } from './sample.ts';
import { runWrk, type WrkSettings } from './wrk.ts';

/** Settings of the HTTP suite. */
export interface HttpSettings {
  /** The servers, by variant name. */
  frameworks: readonly VariantName[];
  routes: readonly RouteName[];
  rounds: number;
  /** Whole seconds per measured run. */
  duration: number;
  /** Whole seconds of warm-up per server and route. */
  warmup: number;
  connections: number;
  threads: number;
  serverCore: number;
  clientCores: readonly number[];
  /** The Node binary the servers run on. */
  node: string;
  log(line: string): void;
}

/** One server on one route. */
export interface HttpCell {
  /** The server's variant name (`hickory-app`); results written before the variants hold a framework's name, which is also a variant's. */
  framework: VariantName;
  route: RouteName;
  /** Median over the rounds (absent when skipped or broken). */
  rps?: number;
  p50?: number;
  p99?: number;
  /** Median of the server's CPU time per request (µs), where /proc could tell. */
  cpuPerRequest?: number;
  /** One per round, in order. */
  samples: LoadSample[];
  /** Why the route was not measured. */
  skipped?: string;
  /** Errors, timeouts and non-2xx answers over all measured runs (the numbers are kept, and flagged). */
  failures: number;
}

/**
 * How long to wait after wrk exits before reading a server's CPU time: the server still closes
 * its connections, and that work belongs to the run.
 *
 * @example
 * ```ts
 * await sleep(SETTLE_MS);
 * const cpuAfter = processCpuMicros(server.pid);
 * ```
 */
export const SETTLE_MS = 100;

/**
 * The order the servers take turns in during round `round` (from 0): rotated by one each round,
 * so that no server always runs first, last or right after the same neighbour.
 *
 * @example
 * ```ts
 * roundOrder(['a', 'b', 'c'], 1); // ['b', 'c', 'a']
 * ```
 */
export function roundOrder<T>(servers: readonly T[], round: number): T[] {
  return servers.map((_, i) => servers[(i + round) % servers.length]!);
}

/**
 * Starts variant `name` in its own process pinned to `serverCore` (`taskset -c`), on `node`, from
 * the packages' dist (`built`, the default: `buildServers()` must have run) or, for tests, from
 * the sources under tsx. A built server whose `@hickory/core` did not resolve to a `dist/` file is
 * stopped, and the call throws.
 *
 * @example
 * ```ts
 * const server = await startPinned('fastify', { node: process.execPath, serverCore: 0 });
 * ```
 */
export async function startPinned(name: VariantName, options: { node: string; serverCore: number; built?: boolean }): Promise<ServerProcess> {
  const variant: Variant = VARIANTS[name];
  const built = options.built ?? true;
  const server = await startServer(variant.framework, { node: options.node, built, preload: variant.preload, wrapper: ['taskset', '-c', String(options.serverCore)] });
  // The point of the method: what users run. A server on the sources would measure tsx's output.
  if (built && !server.core.includes(`${sep}dist${sep}`)) {
    await server.stop();
    throw new Error(`${name}: @hickory/core resolved to ${server.core}, not the package's dist/`);
  }
  return server;
}

async function startAll(settings: HttpSettings, servers: Map<VariantName, ServerProcess>): Promise<void> {
  for (const name of settings.frameworks) servers.set(name, await startPinned(name, settings));
}

// One measured run: wrk's numbers, the server's CPU time over it, and what else its core did.
async function measure(server: ServerProcess, url: string, load: WrkSettings, serverCore: number): Promise<LoadSample> {
  const cpuBefore = processCpuMicros(server.pid);
  const coreBefore = coreTimes(serverCore);
  const sample = await runWrk(url, load);
  // The core's shares over the load itself (the pause after it would read as idle time)…
  const cpuEnd = processCpuMicros(server.pid);
  const coreEnd = coreTimes(serverCore);
  await sleep(SETTLE_MS);
  // …and the server's CPU time once it has also closed the connections.
  const cpuAfter = processCpuMicros(server.pid);
  if (cpuBefore === undefined || cpuEnd === undefined || cpuAfter === undefined) return sample;
  if (sample.requests > 0) sample.cpuPerRequest = (cpuAfter - cpuBefore) / sample.requests;
  const shares = coreBefore && coreEnd ? coreShares(coreBefore, coreEnd, cpuEnd - cpuBefore) : undefined;
  if (shares) sample.serverCore = shares;
  return sample;
}

const percent = (share: number | undefined) => (share === undefined ? '?' : `${Math.round(share * 100)}%`);

/**
 * Runs the HTTP suite on one Node line and gives one cell per server and route. The servers must
 * have been built (`buildServers()`).
 *
 * @example
 * ```ts
 * const cells = await runHttp({ frameworks: ['hickory', 'fastify'], routes: ['hello'], rounds: 3, duration: 7, warmup: 2,
 *   connections: 256, threads: 1, serverCore: 0, clientCores: [1], node: process.execPath, log: console.log });
 * ```
 */
export async function runHttp(settings: HttpSettings): Promise<HttpCell[]> {
  const expected = await expectedBodies();
  const servers = new Map<VariantName, ServerProcess>();
  const cells = new Map<string, HttpCell>();
  const key = (name: VariantName, route: RouteName) => `${name} ${route}`;
  try {
    await startAll(settings, servers);
    for (const [name, server] of servers) {
      for (const route of settings.routes) {
        const cell: HttpCell = { framework: name, route, samples: [], failures: 0 };
        cell.skipped = server.skipped[route] ?? (await checkRoute(server.port, route, expected[route]));
        if (cell.skipped) settings.log(`skip ${name} ${route}: ${cell.skipped}`);
        cells.set(key(name, route), cell);
      }
    }
    const runnable = (name: VariantName, route: RouteName) => !cells.get(key(name, route))!.skipped;
    const url = (name: VariantName, route: RouteName) => `http://127.0.0.1:${servers.get(name)!.port}${ROUTE_PATHS[route]}`;
    const load: WrkSettings = { connections: settings.connections, threads: settings.threads, duration: settings.duration, cores: settings.clientCores };

    settings.log(`warm-up: ${settings.warmup} s per server and route`);
    for (const route of settings.routes) {
      for (const name of settings.frameworks) {
        if (runnable(name, route)) await runWrk(url(name, route), { ...load, duration: settings.warmup });
      }
    }

    for (let round = 0; round < settings.rounds; round++) {
      const order = roundOrder(settings.frameworks, round);
      for (const route of settings.routes) {
        for (const name of order) {
          if (!runnable(name, route)) continue;
          const sample = await measure(servers.get(name)!, url(name, route), load, settings.serverCore);
          cells.get(key(name, route))!.samples.push(sample);
          settings.log(
            `round ${round + 1}/${settings.rounds} ${route.padEnd(6)} ${name.padEnd(16)} ${Math.round(sample.rps).toLocaleString('en-US').padStart(9)} req/s` +
              `  ${sample.cpuPerRequest?.toFixed(1) ?? '?'} µs/request  server core: other work ${percent(sample.serverCore?.other)}, idle ${percent(sample.serverCore?.idle)}` +
              `  load ${sample.loadAverage}${sample.failures ? `  ${sample.failures} FAILED` : ''}`,
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
