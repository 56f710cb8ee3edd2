/**
 * `@hickory/compress`: br and gzip responses by the client's `Accept-Encoding`, for textual
 * types, streamed bodies and static files included, with `Vary: Accept-Encoding`.
 *
 * @example
 * ```ts
 * import { compressPlugin } from '@hickory/compress';
 * createKernel({ root }).use(dispatchPlugin).use(compressPlugin, { threshold: 1024 });
 * ```
 */
export { compressPlugin } from './plugin.ts';
export type { CompressOptions, Encoding } from './options.ts';
export { COMPRESS_ERRORS, type CompressErrorCode } from './errors.ts';
