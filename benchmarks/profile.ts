// Where a server's CPU time goes under load: starts one framework's benchmark server with V8's
// sampling profiler (`--cpu-prof`), sends it an exact closed-loop load, stops it, and prints the
// functions with the most self time, grouped by where their code lives (Hickory's packages,
// node_modules, Node's own JavaScript, native code and the garbage collector).
//   node --conditions=source --import tsx benchmarks/profile.ts --framework hickory --route hello [--node 26.10.0]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadExactly } from './http/closed-loop.ts';
import { nodeBinary, nodeVersion } from './node-binary.ts';
import { ROUTE_NAMES, ROUTE_PATHS, type RouteName } from './routes.ts';
import type { Framework } from './servers/server.ts';
import { startServer } from './servers/spawn.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
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
  const hickory = /\/(core|plugins\/[^/]+|app)\/src\//.exec(url);
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
export function summarize(profile: CpuProfile): { functions: Map<string, number>; places: Map<string, number>; total: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    const file = url.replace(/^.*\/(node_modules|src)\//, '$1/');
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + delta);
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + delta);
    total += delta;
  });
  return { functions, places, total };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      framework: { type: 'string', default: 'hickory' },
      route: { type: 'string', default: 'hello' },
      requests: { type: 'string', default: '200000' },
      node: { type: 'string' },
      top: { type: 'string', default: '30' },
    },
  });
  const node = nodeBinary(values.node);
  const name = values.route as RouteName;
  if (!ROUTE_NAMES.includes(name)) throw new Error(`--route ${values.route}: not one of ${ROUTE_NAMES.join(', ')}`);
  const route = { name, path: ROUTE_PATHS[name] };
  const dir = mkdtempSync(join(tmpdir(), 'hickory-profile-'));
  try {
    const server = await startServer(values.framework as Framework, { node, nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '50'] });
    const load = { connections: 100, pipelining: 10 };
    await loadExactly(server.port, route.path, { ...load, requests: 20_000 });
    const requests = Number(values.requests);
    const started = process.hrtime.bigint();
    await loadExactly(server.port, route.path, { ...load, requests });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    await server.stop(10_000);
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile (did it exit cleanly?)');
    const { functions, places, total } = summarize(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    const all = requests + 20_000;
    console.log(`${values.framework} ${route.path} on Node ${nodeVersion(node)}: ${(requests / seconds).toFixed(0)} req/s while profiled; ${(total / all).toFixed(2)} µs of sampled CPU per request`);
    console.log('\nself time by place (µs per request):');
    for (const [place, us] of [...places].sort((a, b) => b[1] - a[1])) console.log(`  ${(us / all).toFixed(3).padStart(8)}  ${place}`);
    console.log(`\ntop ${values.top} functions by self time (µs per request):`);
    for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${(us / all).toFixed(3).padStart(8)}  ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
