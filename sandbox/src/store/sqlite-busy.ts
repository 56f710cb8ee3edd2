import { setTimeout as sleep } from 'node:timers/promises';
import { abort } from '@hickory/core';

/**
 * True for SQLite's "another connection holds the lock" (`SQLITE_BUSY` and its extended codes), which
 * a later attempt can get past. `SQLITE_BUSY_SNAPSHOT` is left out: it means a deferred transaction
 * read a snapshot that another process wrote past, and no retry of that transaction can succeed.
 *
 * @example
 * ```ts
 * try { db.exec('BEGIN IMMEDIATE'); } catch (error) { if (!isSqliteBusy(error)) throw error; }
 * ```
 */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY') && code !== 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * Answers the request with 503 and `Retry-After: 1`: the database could not be had within its
 * bound. Never a hang, never a 500.
 *
 * @example
 * ```ts
 * if (Date.now() > deadline) databaseBusy();
 * ```
 */
export function databaseBusy(): never {
  return abort(503, 'The database is busy: try again in a moment.', { 'Retry-After': '1' });
}

// The pauses between attempts: short at first (a lock is usually held for a millisecond or two),
// doubling up to this cap, with jitter so that waiting processes do not retry in step.
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;

/**
 * Runs `attempt` until it does not fail with {@link isSqliteBusy}, pausing between attempts on a
 * timer — the event loop serves other requests meanwhile — until `deadline` (a `Date.now()` time);
 * past it, {@link databaseBusy} (503 with `Retry-After`). better-sqlite3's own `busy_timeout` waits
 * inside the call, blocking the whole process: connections that use this set it to 0.
 *
 * @example
 * ```ts
 * const sqlite = new Database(file, { timeout: 0 });
 * await whenNotBusy(() => sqlite.exec('BEGIN IMMEDIATE'), Date.now() + 2000);
 * ```
 */
export async function whenNotBusy<T>(attempt: () => T | Promise<T>, deadline: number): Promise<T> {
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) databaseBusy();
      await sleep(Math.min(left, pause / 2 + Math.random() * pause));
    }
  }
}
