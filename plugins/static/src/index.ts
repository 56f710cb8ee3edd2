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
export { checkOptions, type StaticOptions } from './options.ts';
export { findFile, type FoundFile } from './find-file.ts';
export { SendTarget } from './send-target.ts';
export { STATIC_ERRORS, staticError, type StaticErrorCode } from './errors.ts';
