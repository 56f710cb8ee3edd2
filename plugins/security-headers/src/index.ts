/**
 * `@hickory/security-headers`: helmet 8's security headers on every response Hickory sends
 * (errors, 404 and static files included), each configurable or off; HSTS only over https.
 *
 * @example
 * ```ts
 * import { securityHeadersPlugin } from '@hickory/security-headers';
 * createKernel({ root }).use(dispatchPlugin).use(securityHeadersPlugin);
 * ```
 */
export { securityHeadersPlugin } from './plugin.ts';
export type { SecurityHeadersOptions } from './options.ts';
export type { ContentSecurityPolicyOptions, CspDirectiveValue, CspSource } from './csp.ts';
export { SECURITY_HEADERS_ERRORS, type SecurityHeadersErrorCode } from './errors.ts';
