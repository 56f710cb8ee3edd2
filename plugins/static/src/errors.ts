import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/static`: setup mistakes, thrown at `use()` or `ready()`. */
export const STATIC_ERRORS = Object.freeze({
  HICKORY_ERR_STATIC_OPTION: 'staticPlugin option "%s" %s.',
  HICKORY_ERR_STATIC_ROOT: 'static_root "%s" is not a readable directory (%s): create it or fix `static_root` in the configuration.',
  HICKORY_ERR_STATIC_ROOT_MISSING: 'staticPlugin was used with { required: true } but `static_root` is not set: add static_root to the configuration.',
} as const);

/** A code of {@link STATIC_ERRORS}. */
export type StaticErrorCode = keyof typeof STATIC_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw staticError('HICKORY_ERR_STATIC_ROOT', '/srv/public', 'ENOENT');
 * ```
 */
export function staticError(code: StaticErrorCode, ...args: unknown[]): HickoryError {
  return tableError(STATIC_ERRORS, code, ...args);
}
