import type { Request } from '@hickory/core';
import { rateLimitError } from './errors.ts';

/**
 * What `store` accepts besides `'memory'`: a node-postgres `Pool` (only its `query` is used, so
 * any object with pg's `query(config)` works).
 */
export interface PostgresPool {
  query(config: { text: string; values?: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/** Options of `rateLimitPlugin`. */
export interface RateLimitOptions {
  /**
   * Requests allowed per client in each window of `duration` seconds, over the whole app (static
   * files included). Leave `points` and `duration` out to limit only the `@rate_limit` handlers.
   */
  readonly points?: number;
  /** The window of the app-wide limit, in seconds. */
  readonly duration?: number;
  /**
   * The client a request counts against: by default its address (`request.remote_addr`, which
   * honours `trust_proxy`; IPv6 addresses grouped by their /64, what one subscriber gets).
   */
  readonly key?: (request: Request) => string;
  /**
   * Where the counters live: `'memory'` (the default: per process, bounded by `maxKeys`) or a
   * node-postgres `Pool`, shared by every instance on that database (the table is created at `ready()`).
   */
  readonly store?: 'memory' | PostgresPool;
  /** The memory store's bound: the most clients it counts at once, least recently seen dropped first (default 50 000: about 28 MB at most, measured on Node 20). */
  readonly maxKeys?: number;
  /**
   * Milliseconds to wait for the PostgreSQL store (default 1000): a slower or failing store is
   * replaced for that request by this process's own memory counters (see docs/production.md).
   */
  readonly storeTimeout?: number;
  /** The PostgreSQL table (default `hickory_rate_limits`). */
  readonly tableName?: string;
}

/** A policy: `points` requests per `duration` seconds. */
export interface Policy {
  /** Its name in the `RateLimit-Policy` and `RateLimit` fields. */
  readonly name: string;
  readonly points: number;
  readonly duration: number;
}

/** The options, checked, with their defaults. */
export interface Settings {
  readonly app: Policy | undefined;
  readonly key: ((request: Request) => string) | undefined;
  readonly store: 'memory' | PostgresPool;
  readonly maxKeys: number;
  readonly storeTimeout: number;
  readonly tableName: string;
}

/** The app-wide policy's name in the response fields. */
const APP_POLICY = 'default';

/**
 * Checks `rateLimitPlugin`'s options (a mistake throws `HICKORY_ERR_RATE_LIMIT_OPTION`, naming
 * the option) and fills in the defaults.
 *
 * @example
 * ```ts
 * checkOptions({ points: 100, duration: 60 }).app; // { name: 'default', points: 100, duration: 60 }
 * ```
 */
export function checkOptions(options: RateLimitOptions | undefined): Settings {
  const given = options ?? {};
  if (typeof given !== 'object' || given === null) throw rateLimitError('HICKORY_ERR_RATE_LIMIT_OPTION', '(options)', 'must be an object such as { points: 100, duration: 60 }');
  const { points, duration } = given;
  if ((points === undefined) !== (duration === undefined)) {
    throw rateLimitError('HICKORY_ERR_RATE_LIMIT_OPTION', points === undefined ? 'points' : 'duration', 'is missing: the app-wide limit needs both points and duration (or neither, to limit only @rate_limit handlers)');
  }
  if (points !== undefined) checkPositiveInteger('points', points, rateLimitOptionError);
  if (duration !== undefined) checkPositiveInteger('duration', duration, rateLimitOptionError);
  if (given.key !== undefined && typeof given.key !== 'function') rateLimitOptionError('key', 'must be a function (request) => string');
  const store = given.store ?? 'memory';
  if (store !== 'memory' && (typeof store !== 'object' || store === null || typeof (store as Partial<PostgresPool>).query !== 'function')) {
    rateLimitOptionError('store', "must be 'memory' or a node-postgres Pool (new pg.Pool({ connectionString }))");
  }
  if (given.maxKeys !== undefined) checkPositiveInteger('maxKeys', given.maxKeys, rateLimitOptionError);
  if (given.storeTimeout !== undefined) checkPositiveInteger('storeTimeout', given.storeTimeout, rateLimitOptionError);
  if (given.tableName !== undefined && (typeof given.tableName !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(given.tableName))) {
    rateLimitOptionError('tableName', 'must be a plain SQL name (letters, digits, underscores; at most 63)');
  }
  return {
    app: points === undefined || duration === undefined ? undefined : { name: APP_POLICY, points, duration },
    key: given.key,
    store,
    maxKeys: given.maxKeys ?? 50_000,
    storeTimeout: given.storeTimeout ?? 1000,
    tableName: given.tableName ?? 'hickory_rate_limits',
  };
}

/**
 * Throws through `fail` unless `value` is a positive safe integer.
 *
 * @example
 * ```ts
 * checkPositiveInteger('points', 0, rateLimitOptionError); // throws: points must be a positive integer
 * ```
 */
export function checkPositiveInteger(name: string, value: unknown, fail: (name: string, problem: string) => never): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) fail(name, `must be a positive integer, not ${JSON.stringify(value) ?? String(value)}`);
}

function rateLimitOptionError(name: string, problem: string): never {
  throw rateLimitError('HICKORY_ERR_RATE_LIMIT_OPTION', name, problem);
}
