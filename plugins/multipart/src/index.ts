/**
 * `@hickory/multipart`: `multipart/form-data` bodies for Hickory, on busboy: text fields,
 * uploads streamed to memory or temporary files, and limits.
 *
 * @example
 * ```ts
 * import { multipartPlugin, type UploadedFile } from '@hickory/multipart';
 * const app = createKernel({ root }).use(dispatchPlugin).use(multipartPlugin);
 * // in a controller: const upload = request.POST['file'] as UploadedFile; upload.file.pipe(...)
 * ```
 */
export { multipartPlugin } from './plugin.ts';
export { UploadedFile, type UploadContent } from './uploaded-file.ts';
export { uploadedFile, type UploadedFileSchema } from './uploaded-file-schema.ts';
export type { MultipartLimits, MultipartOptions } from './options.ts';
export { MULTIPART_ERRORS, type MultipartErrorCode } from './errors.ts';
