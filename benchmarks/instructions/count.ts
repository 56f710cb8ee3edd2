// Counting one server's instructions per request under valgrind's callgrind: after a warm-up, for
// each window the counters are zeroed, an exact closed-loop load is sent (every request answered
// before it ends), the counters are dumped, and the count is divided by the responses.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkRoute } from '../http/check.ts';
import { loadExactly, type ClosedLoopLoad } from '../http/closed-loop.ts';
import { expectedBodies, ROUTE_PATHS, type RouteName } from '../routes.ts';
import { startServer } from '../servers/spawn.ts';
import { VARIANTS, type Variant, type VariantName } from '../servers/variants.ts';

const run = promisify(execFile);

/** Under callgrind, code is still being optimized after two windows' worth of requests: four go first. */
export const WARM_UP_WINDOWS = 4;

/**
 * Whether valgrind and callgrind_control can be run here.
 *
 * @example
 * ```ts
 * if (!(await hasCallgrind())) process.exit(2);
 * ```
 */
export async function hasCallgrind(): Promise<boolean> {
  try {
    await run('valgrind', ['--version']);
    await run('callgrind_control', ['--version']);
    return true;
  } catch {
    return false;
  }
}

/** One server and route: instructions per request, or why there is no number. */
export interface Count {
  variant: VariantName;
  route: RouteName;
  /** The lowest of the windows: a window with a full garbage collection in it counts more. */
  perRequest?: number;
  /** Every window's count per request, in order. */
  windows?: number[];
  skipped?: string;
}

/** What a count needs beyond the server and the route. */
export interface CountSettings {
  variants: readonly VariantName[];
  routes: readonly RouteName[];
  load: ClosedLoopLoad;
  windows: number;
  /** The Node binary the servers run on. */
  node: string;
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

async function count(variantName: VariantName, route: RouteName, settings: CountSettings, expected: string): Promise<Count> {
  const variant: Variant = VARIANTS[variantName];
  const dir = await mkdtemp(join(tmpdir(), 'hickory-callgrind-'));
  const wrapper = ['valgrind', '-q', '--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${join(dir, 'callgrind.out')}`];
  // `--single-threaded`: V8 compiles and collects garbage on the main thread, at points the requests
  // decide, not when a background thread happens to finish: the same run counts the same (windows
  // read 65.8k and 75.1k for one server without it), and all of that work is still counted.
  const server = await startServer(variant.framework, { wrapper, nodeArgs: ['--single-threaded'], preload: variant.preload, timeoutMs: 300_000, node: settings.node });
  try {
    const skipped = server.skipped[route];
    if (skipped !== undefined) return { variant: variantName, route, skipped };
    const problem = await checkRoute(server.port, route, expected, 60_000);
    if (problem !== undefined) throw new Error(`${variant.title}: ${problem}`);
    const path = ROUTE_PATHS[route];
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

/**
 * Counts every variant on every route, one server at a time, on `settings.node`; prints each count.
 *
 * @example
 * ```ts
 * const counts = await countAll({ variants: ['hickory'], routes: ['hello'], load, windows: 3, node: process.execPath });
 * ```
 */
export async function countAll(settings: CountSettings): Promise<Count[]> {
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
