/**
 * `@hickory/openapi`: the app's OpenAPI document at `/openapi.json` and an interactive page at
 * `/docs` (Swagger UI, served from node_modules).
 *
 * @example
 * ```ts
 * import { openapiPlugin } from '@hickory/openapi';
 * createApp({ root: new Root(), plugins: [[openapiPlugin, { ui: '/api/docs' }]] });
 * ```
 */
export { openapiPlugin } from './plugin.ts';
export type { OpenapiPluginOptions } from './options.ts';
export { OPENAPI_ERRORS, type OpenapiErrorCode } from './errors.ts';
