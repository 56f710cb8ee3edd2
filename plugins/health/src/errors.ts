import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/health`: setup mistakes, thrown at `use()`. */
export const HEALTH_ERRORS = Object.freeze({
  HICKORY_ERR_HEALTH_OPTION: 'healthPlugin option "%s" %s.',
} as const);

/** A code of {@link HEALTH_ERRORS}. */
export type HealthErrorCode = keyof typeof HEALTH_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw healthError('HICKORY_ERR_HEALTH_OPTION', 'timeout', 'must be a positive number of milliseconds');
 * ```
 */
export function healthError(code: HealthErrorCode, ...args: unknown[]): HickoryError {
  return tableError(HEALTH_ERRORS, code, ...args);
}
