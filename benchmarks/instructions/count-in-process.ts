// `npm run bench:instructions -- --in-process`: instructions per request with no socket, no
// parser and no load generator, one server per process under callgrind (`in-process-child.ts`).
// V8 runs on one thread (`--single-threaded`: it compiles and collects on the main thread, when the
// requests make it), so the same build counts the same from one run to the next, within ~0.5% on
// Node 26 (~3% on Node 20):
// small changes to the per-request path can be told apart, which the counts over a socket (±5%)
// cannot. What is counted is each framework's JavaScript and Node's own HTTP code it calls.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROUTE_PATHS } from '../routes.ts';
import { buildServers } from '../servers/built.ts';
import type { Count, CountSettings } from './count.ts';

// The child's compiled twin, from this file or from its own compiled twin.
const CHILD = fileURLToPath(import.meta.url.includes('/benchmarks/dist/') ? new URL('./in-process-child.js', import.meta.url) : new URL('../dist/benchmarks/instructions/in-process-child.js', import.meta.url));
// Requests before the first counted window: enough for V8 to have optimized what each request runs.
export const IN_PROCESS_WARM_UP = 60_000;

/**
 * Counts every variant on every route in process, one server per process under callgrind, on
 * `settings.node` (its `load.requests` per window; connections and pipelining do not apply).
 *
 * @example
 * ```ts
 * const counts = await countInProcess({ variants: ['hickory-schema', 'fastify'], routes: ['hello'], load, windows: 3, node: process.execPath });
 * ```
 */
export async function countInProcess(settings: CountSettings): Promise<Count[]> {
  buildServers();
  const counts: Count[] = [];
  for (const route of settings.routes) {
    for (const variant of settings.variants) {
      if (route === 'page') throw new Error('--in-process counts hello, depth8 and rest (the page route needs a template engine per server)');
      const started = Date.now();
      const windows = await countOne(settings.node, variant, route, settings.windows, settings.load.requests);
      const count: Count = { variant, route, perRequest: Math.min(...windows), windows };
      counts.push(count);
      console.log(`  ${variant.padEnd(20)} ${ROUTE_PATHS[route].padEnd(20)} ${count.perRequest!.toLocaleString('en-US')} instructions/request (windows: ${windows.map((w) => w.toLocaleString('en-US')).join(', ')})  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
  }
  return counts;
}

function countOne(node: string, variant: string, route: string, windows: number, requests: number): Promise<number[]> {
  const args = ['-q', '--tool=callgrind', '--instr-atstart=no', '--callgrind-out-file=/dev/null', node, '--single-threaded', CHILD, variant, route, String(windows), String(requests), String(IN_PROCESS_WARM_UP)];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`${variant} ${route}: the counted child exited ${code}\n${err.slice(-2000)}`));
      resolve((JSON.parse(last) as { windows: number[] }).windows);
    });
  });
}
