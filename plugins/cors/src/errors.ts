import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/cors`: setup mistakes, thrown by `use(corsPlugin, options)`.
 *
 * @example
 * ```ts
 * try { kernel.use(corsPlugin, { origin: '*', credentials: true }); } catch (error) { error.code; } // 'HICKORY_ERR_CORS_CREDENTIALS_WILDCARD'
 * ```
 */
export const CORS_ERRORS = Object.freeze({
  HICKORY_ERR_CORS_OPTION: 'corsPlugin option "%s" %s.',
  HICKORY_ERR_CORS_ORIGIN:
    'corsPlugin origin "%s" is not an origin: write it as the browser sends it in `Origin`, scheme://host[:port] with no path or trailing slash (e.g. "%s").',
  HICKORY_ERR_CORS_CREDENTIALS_WILDCARD:
    "corsPlugin was given origin '*' with credentials: true, which the Fetch standard refuses (browsers reject `Access-Control-Allow-Origin: *` on a request with cookies), and reflecting every origin instead would let any site read your users' data: list the trusted origins (origin: ['https://app.example.com']), or pass a function if you really mean to decide per request.",
} as const);

/**
 * A code of {@link CORS_ERRORS}.
 *
 * @example
 * ```ts
 * const code: CorsErrorCode = 'HICKORY_ERR_CORS_ORIGIN';
 * ```
 */
export type CorsErrorCode = keyof typeof CORS_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw corsError('HICKORY_ERR_CORS_OPTION', 'maxAge', 'must be a number of seconds (0 or more)');
 * ```
 */
export function corsError(code: CorsErrorCode, ...args: unknown[]): HickoryError {
  return tableError(CORS_ERRORS, code, ...args);
}
