// Where a server's CPU time goes under load: starts one framework's benchmark server with V8's
// sampling profiler (`--cpu-prof`), sends it an exact closed-loop load, stops it, and prints the
// functions with the most self time, grouped by where their code lives (Hickory's packages,
// node_modules, Node's own JavaScript, native code and the garbage collector).
//   node --conditions=source --import tsx benchmarks/profile.ts --framework hickory --route hello [--node 26.10.0]
//     [--pipelining 1] [--no-built] (the sources under tsx); --framework takes the variants' names (hickory-app, …)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadExactly } from './http/closed-loop.ts';
import { nodeBinary, nodeVersion } from './node-binary.ts';
import { ROUTE_NAMES, ROUTE_PATHS, type RouteName } from './routes.ts';
import { buildServers } from './servers/built.ts';
import { startServer } from './servers/spawn.ts';
import { VARIANTS, type Variant } from './servers/variants.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function's code lives, for the summary. */
export function placeOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/node_modules/')) return `npm:${url.split('/node_modules/').pop()!.split('/')[0]}`;
  const hickory = /\/(core|plugins\/[^/]+|app)\/(?:src|dist)\//.exec(url);
  if (hickory) return `hickory:${hickory[1]}`;
  return 'other';
}

/**
 * Self time per function (µs) and per place, from a `.cpuprofile`.
 *
 * @example
 * ```ts
 * const { functions, places, total } = summarize(JSON.parse(readFileSync(file, 'utf8')));
 * ```
 */
export function summarize(profile: CpuProfile): { functions: Map<string, number>; inclusive: Map<string, number>; places: Map<string, number>; total: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const keyOf = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode): string =>
    `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
  // Time with the function anywhere on the stack (once per sample, however deep it recurses).
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    const key = keyOf(byId.get(id)!);
    functions.set(key, (functions.get(key) ?? 0) + delta);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) onStack.add(keyOf(byId.get(at)!));
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + delta);
    total += delta;
  });
  return { functions, inclusive, places, total };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      // A name `npm run bench --frameworks` takes (servers/variants.ts): hickory, hickory-app, fastify, …
      framework: { type: 'string', default: 'hickory' },
      route: { type: 'string', default: 'hello' },
      requests: { type: 'string', default: '200000' },
      node: { type: 'string' },
      top: { type: 'string', default: '30' },
      // Only functions whose place starts with this (`hickory`, `node`, `npm:`), to see one part closely.
      place: { type: 'string', default: '' },
      // Rank by time with the function anywhere on the stack, not by its own time.
      inclusive: { type: 'boolean', default: false },
      // The quiet method's load: no pipelining; `--pipelining 10` for the old one.
      pipelining: { type: 'string', default: '1' },
      // The packages' dist, as users run them (built first); `--no-built` profiles the sources under tsx.
      built: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const node = nodeBinary(values.node);
  const name = values.route as RouteName;
  if (!ROUTE_NAMES.includes(name)) throw new Error(`--route ${values.route}: not one of ${ROUTE_NAMES.join(', ')}`);
  const route = { name, path: ROUTE_PATHS[name] };
  const dir = mkdtempSync(join(tmpdir(), 'hickory-profile-'));
  try {
    if (values.built) buildServers();
    const variant: Variant | undefined = (VARIANTS as Record<string, Variant>)[values.framework];
    if (variant === undefined) throw new Error(`--framework ${values.framework}: not one of ${Object.keys(VARIANTS).join(', ')}`);
    const server = await startServer(variant.framework, {
      node,
      built: values.built,
      ...(variant.preload === undefined ? {} : { preload: variant.preload }),
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '50'],
    });
    const load = { connections: 100, pipelining: Number(values.pipelining) };
    await loadExactly(server.port, route.path, { ...load, requests: 20_000 });
    const requests = Number(values.requests);
    const started = process.hrtime.bigint();
    await loadExactly(server.port, route.path, { ...load, requests });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await server.stop(10_000);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile (did it exit cleanly?)');
    const { functions, inclusive, places, total } = summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const all = requests + 20_000;
    console.log(`${values.framework} ${route.path} on Node ${nodeVersion(node)}: ${(requests / seconds).toFixed(0)} req/s while profiled; ${(total / all).toFixed(2)} µs of sampled CPU per request`);
    console.log('\nself time by place (µs per request):');
    for (const [place, us] of [...places].sort((a, b) => b[1] - a[1])) console.log(`  ${(us / all).toFixed(3).padStart(8)}  ${place}`);
    console.log(`\ntop ${values.top} functions by ${values.inclusive ? 'inclusive' : 'self'} time (µs per request):`);
    const shown = [...(values.inclusive ? inclusive : functions)].filter(([name]) => values.place === '' || placeOf(name.split(' ').pop()!, name).startsWith(values.place));
    for (const [name, us] of shown.sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${(us / all).toFixed(3).padStart(8)}  ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
