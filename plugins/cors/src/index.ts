/**
 * `@hickory/cors`: Cross-Origin Resource Sharing on the kernel's hooks. Preflights are answered
 * before routing (204, no handler runs); every response to an allowed origin carries the CORS
 * headers (errors, 404 and static files included), with `Vary: Origin` whenever the answer
 * depends on the origin.
 *
 * @example
 * ```ts
 * import { corsPlugin } from '@hickory/cors';
 * createKernel({ root }).use(dispatchPlugin).use(corsPlugin, { origin: 'https://app.example.com' });
 * ```
 */
export { corsPlugin } from './plugin.ts';
export type { CorsOptions } from './options.ts';
export type { CorsOrigin } from './origin.ts';
export { CORS_ERRORS, type CorsErrorCode } from './errors.ts';
