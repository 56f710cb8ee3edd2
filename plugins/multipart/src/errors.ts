import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/multipart`: mistakes in the plugin's options or setup, thrown at
 * `use()` or `ready()`. Errors sent to clients (400, 413) are `HTTPError`s, not these.
 */
export const MULTIPART_ERRORS = Object.freeze({
  HICKORY_ERR_MULTIPART_OPTION: 'multipartPlugin option "%s" %s.',
  HICKORY_ERR_MULTIPART_TMPDIR: 'multipartPlugin cannot write temporary files to "%s" (%s): create the directory or set the `tmpdir` option.',
} as const);

/** A code of {@link MULTIPART_ERRORS}. */
export type MultipartErrorCode = keyof typeof MULTIPART_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw multipartError('HICKORY_ERR_MULTIPART_OPTION', 'limits.files', 'must be a positive integer');
 * ```
 */
export function multipartError(code: MultipartErrorCode, ...args: unknown[]): HickoryError {
  return tableError(MULTIPART_ERRORS, code, ...args);
}
