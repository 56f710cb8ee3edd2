import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/csrf`: setup mistakes, thrown at `use()`. */
export const CSRF_ERRORS = Object.freeze({
  HICKORY_ERR_CSRF_OPTION: 'csrfPlugin option "%s" %s.',
  HICKORY_ERR_CSRF_TRUSTED_ORIGIN:
    'csrfPlugin: trusted origin %s is not an origin as browsers send it (%s): give scheme://host[:port] in lower case, without a path, query or fragment, such as "https://sso.example.com".',
} as const);

/** A code of {@link CSRF_ERRORS}. */
export type CsrfErrorCode = keyof typeof CSRF_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw csrfError('HICKORY_ERR_CSRF_OPTION', 'trusted', 'is unknown (known: trustedOrigins)');
 * ```
 */
export function csrfError(code: CsrfErrorCode, ...args: unknown[]): HickoryError {
  return tableError(CSRF_ERRORS, code, ...args);
}
