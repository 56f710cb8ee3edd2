import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/compress`: setup mistakes, thrown when the plugin is applied. */
export const COMPRESS_ERRORS = Object.freeze({
  HICKORY_ERR_COMPRESS_OPTION: 'compressPlugin option "%s" %s.',
} as const);

/** A code of {@link COMPRESS_ERRORS}. */
export type CompressErrorCode = keyof typeof COMPRESS_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw compressError('HICKORY_ERR_COMPRESS_OPTION', 'threshold', 'must be a byte count');
 * ```
 */
export function compressError(code: CompressErrorCode, ...args: unknown[]): HickoryError {
  return tableError(COMPRESS_ERRORS, code, ...args);
}
