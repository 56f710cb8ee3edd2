/**
 * `@hickory/health`: liveness (`/healthz`) and readiness (`/readyz`) answered before routing,
 * hooks and transactions; readiness runs named checks with a timeout and answers 503 naming the
 * failing ones, under event-loop pressure and while the app is closing.
 *
 * @example
 * ```ts
 * import { healthPlugin } from '@hickory/health';
 * createKernel({ root }).use(dispatchPlugin).use(healthPlugin, { checks: { db: () => pool.query('SELECT 1') } });
 * ```
 */
export { healthPlugin } from './plugin.ts';
export type { HealthOptions, HealthCheck } from './options.ts';
export type { CheckOutcome } from './readiness.ts';
export { HEALTH_ERRORS, type HealthErrorCode } from './errors.ts';
