// Command-line options of `npm run bench:side-by-side`.
import { parseArgs } from 'node:util';
import type { Pair, SideBySideSettings } from './http/side-by-side.ts';
import { CURRENT, parseNodeList } from './node-lines.ts';
import { list, placementOf, positive, wholeSeconds } from './options.ts';
import { ROUTE_NAMES, type RouteName } from './routes.ts';
import { VARIANT_NAMES, type VariantName } from './servers/variants.ts';

/** The pair measured when neither `--pair` nor `--pairs` is given: what issue #40 compares. */
const DEFAULT_PAIR: Pair = ['hickory-schema', 'fastify'];
const DEFAULT_ROUTES: readonly RouteName[] = ['hello', 'depth8', 'rest'];

/**
 * Everything a side-by-side run is set up with (the suite's settings but the Node binary and the log, plus the run's own).
 *
 * @example
 * ```ts
 * const { write, nodes, ...suite }: SideBySideOptions = parseSideBySideOptions(process.argv.slice(2));
 * ```
 */
export interface SideBySideOptions extends Omit<SideBySideSettings, 'node' | 'log' | 'built'> {
  pairs: Pair[];
  /** The Node lines, as given to `--node` (resolved by `resolveNodeLines`). */
  nodes: string[];
  write: boolean;
}

/**
 * The usage text `--help` prints (and a mistaken option is followed by).
 *
 * @example
 * ```ts
 * console.error(`${error.message}\n\n${SIDE_BY_SIDE_USAGE}`);
 * ```
 */
export const SIDE_BY_SIDE_USAGE = `usage: npm run bench:side-by-side -- [options]
  Two servers pinned to the same core (taskset), each loaded by its own wrk at the same time from
  the client cores: the host's drift hits both alike. Per round the ratios A/B of CPU per request
  and of requests/s; their median and range over the rounds.
  --pair a,b            one pair, A then B (default: ${DEFAULT_PAIR.join(',')})
  --pairs a:b,c:d       several pairs, measured one after the other
  --control             add the A/A control: the first pair's B against itself (the method's own spread)
  --routes a,b          ${ROUTE_NAMES.join(', ')} (default: ${DEFAULT_ROUTES.join(',')})
  --rounds N            measured rounds per pair and route (default 7)
  --duration S          whole seconds per round (default 5)
  --warmup S            whole seconds of warm-up per pair and route, both at once (default 2)
  --connections N       each wrk's connections (default 256)
  --server-core N       the core both servers are pinned to (default 0)
  --client-cores LIST   the cores both wrk are pinned to (default 1)
  --threads N           each wrk's threads (default: one per client core)
  --node a,b            the Node lines the servers run on, one after the other: current, a version
                        or a path (default: ${CURRENT})
  --write               put each line's table into benchmarks/README.md`;

function variant(name: string, option: string): VariantName {
  if (!VARIANT_NAMES.includes(name as VariantName)) throw new Error(`${option}: unknown server "${name}" (one of: ${VARIANT_NAMES.join(', ')})`);
  return name as VariantName;
}

/**
 * The pairs of `--pairs a:b,c:d` (each `a:b` is A then B), in the order given, each once.
 *
 * @example
 * ```ts
 * parsePairs('hickory-schema:fastify, fastify:fastify'); // [['hickory-schema', 'fastify'], ['fastify', 'fastify']]
 * ```
 */
export function parsePairs(text: string, option = '--pairs'): Pair[] {
  const pairs: Pair[] = [];
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const names = entry.split(':').map((s) => s.trim());
    if (names.length !== 2 || !names[0] || !names[1]) throw new Error(`${option}: "${entry}" is not a pair such as hickory-schema:fastify`);
    const pair: Pair = [variant(names[0], option), variant(names[1], option)];
    if (!pairs.some(([a, b]) => a === pair[0] && b === pair[1])) pairs.push(pair);
  }
  if (pairs.length === 0) throw new Error(`${option} needs at least one pair such as hickory-schema:fastify`);
  return pairs;
}

/**
 * Parses `process.argv`-style arguments (`--help` prints the usage and exits).
 *
 * @example
 * ```ts
 * parseSideBySideOptions(['--pair', 'hickory-app-schema,fastify', '--control']).pairs;
 * // [['hickory-app-schema', 'fastify'], ['fastify', 'fastify']]
 * ```
 */
export function parseSideBySideOptions(args: readonly string[]): SideBySideOptions {
  const { values } = parseArgs({
    args: [...args],
    options: {
      pair: { type: 'string' },
      pairs: { type: 'string' },
      control: { type: 'boolean', default: false },
      routes: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      'server-core': { type: 'string' },
      'client-cores': { type: 'string' },
      node: { type: 'string' },
      write: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(SIDE_BY_SIDE_USAGE);
    process.exit(0);
  }
  const given = [values.pair === undefined ? '' : values.pair.replace(',', ':'), values.pairs ?? ''].filter(Boolean).join(',');
  if (values.pair !== undefined && values.pair.split(',').length !== 2) throw new Error(`--pair takes two servers, A,B: got "${values.pair}"`);
  const pairs = given ? parsePairs(given, values.pairs === undefined ? '--pair' : '--pairs') : [DEFAULT_PAIR];
  const control: Pair = [pairs[0]![1], pairs[0]![1]];
  if (values.control && !pairs.some(([a, b]) => a === control[0] && b === control[1])) pairs.push(control);
  const { serverCore, clientCores, threads } = placementOf(values);
  return {
    pairs,
    routes: values.routes === undefined ? [...DEFAULT_ROUTES] : list(values.routes, ROUTE_NAMES, 'route'),
    rounds: Math.round(positive(values.rounds, 7, 'rounds')),
    duration: wholeSeconds(values.duration, 5, 'duration'),
    warmup: wholeSeconds(values.warmup, 2, 'warmup'),
    connections: Math.round(positive(values.connections, 256, 'connections')),
    threads,
    serverCore,
    clientCores,
    nodes: parseNodeList(values.node, [CURRENT]),
    write: values.write!,
  };
}
