/**
 * `@hickory/static`: serves the files under `static_root`, on `send` (ETag, Last-Modified, 304,
 * Range, HEAD), before routing, for paths that name an existing file.
 *
 * @example
 * ```ts
 * import { staticPlugin } from '@hickory/static';
 * createKernel({ root, static_root: '%(confdir)s/public' }).use(dispatchPlugin).use(staticPlugin);
 * ```
 */
export { staticPlugin } from './plugin.ts';
export type { StaticOptions } from './options.ts';
export { STATIC_ERRORS, type StaticErrorCode } from './errors.ts';
