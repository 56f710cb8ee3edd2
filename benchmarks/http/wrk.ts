// One run of Debian's wrk against one route, pinned to the load generator's cores: keep-alive
// connections (HTTP/1.1, wrk's default), one request in flight per connection (wrk pipelines only
// when a script asks it to; the one given here only reports).
import { execFile, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LoadSample } from './sample.ts';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('./wrk-summary.lua', import.meta.url));

/** How wrk loads a route. */
export interface WrkSettings {
  /** Open connections, each with one request at a time. */
  connections: number;
  /** wrk's threads (one per core it is pinned to is right: more only take turns). */
  threads: number;
  /** Whole seconds (wrk takes no fractions). */
  duration: number;
  /** The cores wrk is pinned to (`taskset -c`). */
  cores: readonly number[];
}

/**
 * The version of the `wrk` on the PATH, or `undefined` when there is none.
 *
 * @example
 * ```ts
 * if (wrkVersion() === undefined) console.error('apt-get install wrk');
 * ```
 */
export function wrkVersion(): string | undefined {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  // `wrk debian/4.1.0-3+b2 [epoll] Copyright …` (printed with the usage, exit code 1).
  return /^wrk (\S+)/.exec(probe.stdout)?.[1] ?? 'unknown version';
}

/**
 * The command line of one run: `taskset -c <cores> wrk …`.
 *
 * @example
 * ```ts
 * wrkCommand('http://127.0.0.1:3000/hello', { connections: 256, threads: 1, duration: 7, cores: [1] });
 * // ['taskset', '-c', '1', 'wrk', '-t1', '-c256', '-d7s', '--timeout', '10s', '-s', '…/wrk-summary.lua', 'http://127.0.0.1:3000/hello']
 * ```
 */
export function wrkCommand(url: string, settings: WrkSettings): string[] {
  const duration = Math.round(settings.duration);
  return ['taskset', '-c', settings.cores.join(','), 'wrk', `-t${settings.threads}`, `-c${settings.connections}`, `-d${duration}s`, '--timeout', '10s', '-s', SCRIPT, url];
}

/**
 * The numbers of one run, from wrk's output (the JSON line its `done` callback printed last).
 *
 * @example
 * ```ts
 * parseWrkOutput('…\n{"duration_us":7000000,"requests":350000,…}\n').rps; // 50000
 * ```
 */
export function parseWrkOutput(stdout: string): Omit<LoadSample, 'loadAverage'> {
  const line = stdout.trim().split('\n').findLast((l) => l.startsWith('{'));
  if (line === undefined) throw new Error(`wrk printed no summary: ${stdout.slice(-300)}`);
  const s = JSON.parse(line) as Record<'duration_us' | 'requests' | 'connect' | 'read' | 'write' | 'status' | 'timeout' | 'p50_us' | 'p99_us', number>;
  return {
    rps: s.requests / (Math.max(s.duration_us, 1) / 1e6),
    requests: s.requests,
    p50: s.p50_us / 1000,
    p99: s.p99_us / 1000,
    // wrk counts an answer other than 2xx/3xx as a `status` error; the rest are socket errors.
    failures: s.connect + s.read + s.write + s.status + s.timeout,
  };
}

/**
 * Loads `url` with wrk for `settings.duration` seconds.
 *
 * @example
 * ```ts
 * const sample = await runWrk('http://127.0.0.1:3000/hello', { connections: 256, threads: 1, duration: 7, cores: [1] });
 * ```
 */
export async function runWrk(url: string, settings: WrkSettings): Promise<LoadSample> {
  const [command, ...args] = wrkCommand(url, settings);
  const { stdout } = await run(command!, args, { timeout: (settings.duration + 30) * 1000, maxBuffer: 1 << 20 });
  return { ...parseWrkOutput(stdout), loadAverage: Math.round(loadavg()[0]! * 100) / 100 };
}
