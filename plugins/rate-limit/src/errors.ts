import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/rate-limit`: setup mistakes, thrown at `use()`, at decoration or at `ready()`. */
export const RATE_LIMIT_ERRORS = Object.freeze({
  HICKORY_ERR_RATE_LIMIT_OPTION: 'rateLimitPlugin option "%s" %s.',
  HICKORY_ERR_RATE_LIMIT_DECORATOR: '@rate_limit %s.',
  HICKORY_ERR_RATE_LIMIT_STORE:
    'The rate-limit store could not create its table "%s" in PostgreSQL (%s): check that the Pool given as `store` can connect and may CREATE TABLE, or create the table yourself (see docs/production.md#rate-limits).',
} as const);

/** A code of {@link RATE_LIMIT_ERRORS}. */
export type RateLimitErrorCode = keyof typeof RATE_LIMIT_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw rateLimitError('HICKORY_ERR_RATE_LIMIT_OPTION', 'points', 'must be a positive integer');
 * ```
 */
export function rateLimitError(code: RateLimitErrorCode, ...args: unknown[]): HickoryError {
  return tableError(RATE_LIMIT_ERRORS, code, ...args);
}
