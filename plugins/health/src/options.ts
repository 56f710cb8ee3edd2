import { healthError } from './errors.ts';

/** A readiness check: ready when it returns (or resolves to) anything but `false`; failing when it throws, rejects, returns `false` or takes longer than `timeout`. */
export type HealthCheck = () => unknown;

/** Options of `healthPlugin`. */
export interface HealthOptions {
  /** The liveness path (default `/healthz`): 200 while the process can answer at all. */
  readonly live?: string;
  /** The readiness path (default `/readyz`): 200 when every check passes, else 503. */
  readonly ready?: string;
  /** Readiness checks by name, run concurrently on each readiness request. */
  readonly checks?: Readonly<Record<string, HealthCheck>>;
  /** Milliseconds each check may take before it counts as failed (default 1000). */
  readonly timeout?: number;
  /**
   * Readiness answers 503 while the event loop is this many milliseconds late or more (default
   * 1000; `false`: never).
   */
  readonly maxEventLoopDelay?: number | false;
}

/** The options, checked, with their defaults. */
export interface HealthSettings {
  readonly live: string;
  readonly ready: string;
  readonly checks: ReadonlyArray<readonly [string, HealthCheck]>;
  readonly timeout: number;
  readonly maxEventLoopDelay: number | false;
}

/** Names a readiness answer uses for its own reasons: no check may take them. */
const RESERVED_NAMES: readonly string[] = ['closing', 'eventLoopDelay'];

/**
 * Checks `healthPlugin`'s options (a mistake throws `HICKORY_ERR_HEALTH_OPTION`, naming the
 * option) and fills in the defaults.
 *
 * @example
 * ```ts
 * checkOptions({ checks: { db: () => pool.query('SELECT 1') } }).ready; // '/readyz'
 * ```
 */
export function checkOptions(options: HealthOptions | undefined): HealthSettings {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null) fail('(options)', "must be an object such as { checks: { db: () => db.ping() } }");
  const live = checkPath('live', given.live ?? '/healthz');
  const ready = checkPath('ready', given.ready ?? '/readyz');
  if (live === ready) fail('ready', `must differ from live (both are "${live}")`);
  const checks = given.checks ?? {};
  if (typeof checks !== 'object' || checks === null || Array.isArray(checks)) fail('checks', 'must be an object of named functions, such as { db: () => db.ping() }');
  const entries = Object.entries(checks);
  for (const [name, check] of entries) {
    if (typeof check !== 'function') fail(`checks.${name}`, `must be a function, not ${typeof check}`);
    if (RESERVED_NAMES.includes(name)) fail(`checks.${name}`, `uses a name readiness answers keep for themselves (${RESERVED_NAMES.join(', ')}): rename the check`);
  }
  const timeout = given.timeout ?? 1000;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) fail('timeout', `must be a positive number of milliseconds, not ${String(timeout)}`);
  const maxEventLoopDelay = given.maxEventLoopDelay ?? 1000;
  if (maxEventLoopDelay !== false && (typeof maxEventLoopDelay !== 'number' || !Number.isFinite(maxEventLoopDelay) || maxEventLoopDelay <= 0)) {
    fail('maxEventLoopDelay', `must be a positive number of milliseconds or false, not ${String(maxEventLoopDelay)}`);
  }
  return { live, ready, checks: entries, timeout, maxEventLoopDelay };
}

function checkPath(name: string, path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) fail(name, `must be a path such as "/${name === 'live' ? 'healthz' : 'readyz'}", not ${JSON.stringify(path)}`);
  return path;
}

function fail(name: string, problem: string): never {
  throw healthError('HICKORY_ERR_HEALTH_OPTION', name, problem);
}
