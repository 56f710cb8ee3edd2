/**
 * `@hickory/csrf`: unsafe requests a browser sent from another site are refused with 403, by
 * Fetch Metadata (`Sec-Fetch-Site`) and then `Origin` against the request's own origin (Go 1.25's
 * CrossOriginProtection); `trustedOrigins` and `@expose({ csrf: false })` let chosen ones through.
 *
 * @example
 * ```ts
 * import { csrfPlugin } from '@hickory/csrf';
 * createKernel({ root }).use(dispatchPlugin).use(csrfPlugin);
 * ```
 */
export { csrfPlugin } from './plugin.ts';
export type { CsrfOptions } from './options.ts';
export { CSRF_ERRORS, type CsrfErrorCode } from './errors.ts';
