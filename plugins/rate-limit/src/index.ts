/**
 * `@hickory/rate-limit`: rate limits on rate-limiter-flexible, app-wide (`rateLimitPlugin`) and
 * per handler (`@rate_limit`), 429 with `Retry-After` and the IETF `RateLimit-Policy`/`RateLimit`
 * fields, counted in memory or in PostgreSQL (shared by every instance).
 *
 * @example
 * ```ts
 * import { rateLimitPlugin, rate_limit } from '@hickory/rate-limit';
 * createKernel({ root }).use(dispatchPlugin).use(rateLimitPlugin, { points: 100, duration: 60 });
 * ```
 */
export { rateLimitPlugin } from './plugin.ts';
export { rate_limit, type HandlerLimitOptions } from './rate-limit-decorator.ts';
export type { RateLimitOptions, PostgresPool } from './options.ts';
export { RATE_LIMIT_ERRORS, type RateLimitErrorCode } from './errors.ts';
