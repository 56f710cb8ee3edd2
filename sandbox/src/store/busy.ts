import { abort } from '@hickory/core';

/**
 * Answers the request with 503 and `Retry-After: 1`: the database could not be had within its
 * bound (the SQLite writer, a reader, or a pooled PostgreSQL connection). Never a hang.
 *
 * @example
 * ```ts
 * const release = await lane.acquire().catch((error) => (error === E_TIMEOUT ? databaseBusy() : Promise.reject(error)));
 * ```
 */
export function databaseBusy(): never {
  return abort(503, 'The database is busy: try again in a moment.', { 'Retry-After': '1' });
}
