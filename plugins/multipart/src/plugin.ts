import { access, constants, stat } from 'node:fs/promises';
import { definePlugin } from '@hickory/core';
import { loadOnce } from '@hickory/core/kit';
import { multipartError } from './errors.ts';
import { resolveOptions, type MultipartOptions } from './options.ts';
import { TempFiles } from './temp-files.ts';

// The parser (on busboy) loads with the first multipart body: an app that gets none never loads it.
// Until its body is read the request stream stays paused, so waiting for the load loses nothing.
const loadParser = loadOnce(async () => (await import('./parse-multipart.ts')).parseMultipart);

/**
 * Reads `multipart/form-data` bodies into `request.POST` (text fields as strings, files as
 * `UploadedFile`s) through the kernel's `parseBody` hook, on busboy. Small files stay in memory,
 * larger ones go to temporary files that are deleted when the response ends or the client
 * leaves. Limits (see `MultipartLimits`) answer 413 naming the limit; malformed bodies and
 * reserved names answer 400.
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(multipartPlugin, { limits: { fileSize: 50 * 1024 * 1024 } });
 * ```
 */
export const multipartPlugin = definePlugin<MultipartOptions | undefined>({
  name: 'multipart',
  apply(kernel, options) {
    const resolved = resolveOptions(options);

    // Only the requests it parsed have files to remove: no tap on every response.
    kernel.hooks.parseBody.for('multipart/form-data').tapPromise('multipart', (request) => {
      const temps = new TempFiles(request.raw.socket);
      request.afterResponse(temps.removeAll);
      const parse = loadParser();
      return parse instanceof Promise ? parse.then((loaded) => loaded(request, resolved, temps)) : parse(request, resolved, temps);
    });

    kernel.hooks.ready.tapPromise('multipart', async () => {
      try {
        if (!(await stat(resolved.tmpdir)).isDirectory()) throw new Error('not a directory');
        await access(resolved.tmpdir, constants.W_OK);
      } catch (error) {
        throw multipartError('HICKORY_ERR_MULTIPART_TMPDIR', resolved.tmpdir, (error as Error).message, error);
      }
    });
  },
});
