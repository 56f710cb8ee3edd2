import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/security-headers`: setup mistakes, thrown by
 * `use(securityHeadersPlugin, options)`, and a per-request CSP value that would break the header.
 *
 * @example
 * ```ts
 * try { kernel.use(securityHeadersPlugin, { hsts: false }); } catch (error) { error.code; } // 'HICKORY_ERR_SECURITY_HEADERS_OPTION'
 * ```
 */
export const SECURITY_HEADERS_ERRORS = Object.freeze({
  HICKORY_ERR_SECURITY_HEADERS_OPTION: 'securityHeadersPlugin option "%s" %s.',
  HICKORY_ERR_SECURITY_HEADERS_CSP: 'securityHeadersPlugin contentSecurityPolicy: %s.',
} as const);

/**
 * A code of {@link SECURITY_HEADERS_ERRORS}.
 *
 * @example
 * ```ts
 * const code: SecurityHeadersErrorCode = 'HICKORY_ERR_SECURITY_HEADERS_CSP';
 * ```
 */
export type SecurityHeadersErrorCode = keyof typeof SECURITY_HEADERS_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw securityHeadersError('HICKORY_ERR_SECURITY_HEADERS_OPTION', 'xFrameOptions', 'must be true, false or { action }');
 * ```
 */
export function securityHeadersError(code: SecurityHeadersErrorCode, ...args: unknown[]): HickoryError {
  return tableError(SECURITY_HEADERS_ERRORS, code, ...args);
}
