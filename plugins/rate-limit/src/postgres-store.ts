import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { rateLimitError } from './errors.ts';
import type { Policy, PostgresPool } from './options.ts';

// What the loser of two concurrent CREATE TABLE IF NOT EXISTS is told (see createTable).
const RACE_LOST = new Set(['23505', '42710', '42P07']);

/**
 * Creates the counters' table (rate-limiter-flexible's own layout: `key`, `points`, `expire`) if
 * it is missing; a failure is `HICKORY_ERR_RATE_LIMIT_STORE`, naming the table and the cause.
 * Two instances starting together may race on `CREATE TABLE IF NOT EXISTS`: PostgreSQL then
 * reports a duplicate key of its catalog (23505), a duplicate object (42710, `type "…" already
 * exists`) or a duplicate table (42P07) to the loser, whose table exists all the same.
 *
 * @example
 * ```ts
 * await createTable(pool, 'hickory_rate_limits');
 * ```
 */
export async function createTable(pool: PostgresPool, table: string): Promise<void> {
  try {
    await pool.query({ text: `CREATE TABLE IF NOT EXISTS "${table}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)` });
  } catch (error) {
    if (RACE_LOST.has(String((error as { code?: unknown }).code))) return;
    throw rateLimitError('HICKORY_ERR_RATE_LIMIT_STORE', table, (error as Error).message ?? String(error), error);
  }
}

/**
 * A limiter for `policy` on the table (created first by {@link createTable}): one atomic upsert
 * per request, so every instance on the database shares the count.
 *
 * @example
 * ```ts
 * const limiter = postgresLimiter(pool, 'hickory_rate_limits', policy, 'app');
 * ```
 */
export function postgresLimiter(pool: PostgresPool, table: string, policy: Policy, keyPrefix: string): RateLimiterPostgres {
  // Expired rows are swept by `sweepExpired` (stopped at close()), not by the limiter's own timer.
  return new RateLimiterPostgres({ storeClient: pool, storeType: 'pool', tableName: table, tableCreated: true, clearExpiredByTimeout: false, points: policy.points, duration: policy.duration, keyPrefix });
}

/**
 * Deletes the rows whose window ended, every `everyMs` (the timer does not keep the process
 * alive); returns what stops it. A failed sweep is only retried: the rows are dead weight, not wrong counts.
 *
 * @example
 * ```ts
 * const stop = sweepExpired(pool, 'hickory_rate_limits', 60_000);
 * kernel.hooks.close.tap('rate-limit', stop);
 * ```
 */
export function sweepExpired(pool: PostgresPool, table: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    pool.query({ text: `DELETE FROM "${table}" WHERE expire < $1`, values: [Date.now()] }).catch(() => {});
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
