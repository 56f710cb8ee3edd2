import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReadStream } from 'node:fs';
import type send from 'send';
import { definePlugin, HTTPError, Response, type Request } from '@hickory/core';
import { confdirPath, loadOnce, tapDirect, writeDefaultError } from '@hickory/core/kit';
import { staticError } from './errors.ts';
import { fileSegments, findFile, findFileAt, type FoundFile } from './find-file.ts';
import { checkOptions, type StaticOptions } from './options.ts';
import { SendTarget } from './send-target.ts';

/**
 * Serves the files under `static_root` (on `send`): a GET or HEAD whose path names an existing
 * regular file there is answered before routing, with `ETag`, `Last-Modified`, 304, `Range`
 * (206/416), the right `Content-Type` and a configurable `Cache-Control`. Every other request goes
 * on to routing; another method on a file's path that routing does not handle is a 405 with
 * `Allow: GET, HEAD` rather than a 404. Path traversal, dotfiles and links leading out of the root are never served.
 * Without `static_root` the plugin does nothing (or fails `ready()` with `{ required: true }`).
 *
 * @example
 * ```ts
 * createKernel({ root, static_root: '%(confdir)s/public' }).use(dispatchPlugin).use(staticPlugin, { maxAge: '1h' });
 * ```
 */
export const staticPlugin = definePlugin<StaticOptions | undefined>({
  name: 'static',
  config: { static_root: confdirPath },
  apply(kernel, options) {
    const settings = checkOptions(options);
    let root: string | undefined;

    kernel.hooks.ready.tapPromise('static', async () => {
      const configured = kernel.config.static_root;
      if (configured === undefined) {
        if (settings.required) throw staticError('HICKORY_ERR_STATIC_ROOT_MISSING');
        return;
      }
      const absolute = resolve(kernel.config.confdir, configured);
      try {
        root = await realpath(absolute);
        if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
      } catch (error) {
        throw staticError('HICKORY_ERR_STATIC_ROOT', absolute, (error as Error).message, error);
      }
    });

    // Tapped in apply() to keep its place among the plugins' taps, but left out of the request
    // path without a root; with one, only a GET or HEAD whose path can name a file waits on the disk.
    tapDirect(
      kernel.hooks.beforeRoute,
      'static',
      (request, response) => {
        if (root === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
        const segments = fileSegments(request.path);
        if (segments === undefined) return undefined;
        const within = root;
        return findFileAt(within, segments).then((file) => (file ? serveFile(request, response, within, file, settings) : undefined));
      },
      { active: () => root !== undefined },
    );

    // POST /style.css that no route takes: the resource exists, the method is what is wrong.
    kernel.hooks.onAbort.tapPromise('static', async (error, request) => {
      if (root === undefined || error.status !== 404 || request.method === 'GET' || request.method === 'HEAD') return undefined;
      if (!(await findFile(root, request.path))) return undefined;
      const refused = new Response();
      writeDefaultError(new HTTPError(405, undefined, FILE_METHODS), request.raw, refused);
      return refused;
    });
  },
});

const FILE_METHODS = { Allow: 'GET, HEAD' };

type Send = typeof send;

// `send` loads with the first file to serve: an app that serves none (or has no `static_root`)
// never loads it and its dependencies (mime types, http-errors…).
const loadSend = loadOnce(async (): Promise<Send> => (await import('send')).default);

function serveFile(request: Request, response: Response, root: string, file: FoundFile, settings: StaticOptions): Promise<Response> {
  const loaded = loadSend();
  return loaded instanceof Promise ? loaded.then((sendFile) => sendWith(sendFile, request, response, root, file, settings)) : sendWith(loaded, request, response, root, file, settings);
}

// `send` decides the status and headers (conditional requests, ranges, type, caching); the
// kernel then writes them and streams the bytes, with backpressure.
function sendWith(sendFile: Send, request: Request, response: Response, root: string, file: FoundFile, settings: StaticOptions): Promise<Response> {
  return new Promise<Response>((resolveServe, reject) => {
    const target = new SendTarget();
    let source: ReadStream | undefined;
    // The kernel destroys the body stream when the client leaves: the file goes with it.
    target.once('close', () => source?.destroy());
    if (typeof settings.cacheControl === 'string') target.setHeader('Cache-Control', settings.cacheControl);
    let done = false;
    // Called from `send`'s events, inside its file-system callbacks: whatever throws here would be
    // an uncaught exception, so it rejects instead.
    const answer = (): void => {
      if (done) return;
      done = true;
      try {
        response.status = target.statusCode;
        for (const [name, value] of target.headerEntries()) response.headerMap.set(name, typeof value === 'number' ? value : (value as string | string[]));
        response.app_iter = target;
        resolveServe(response);
      } catch (error) {
        target.destroy();
        reject(error);
      }
    };
    const sending = sendFile(request.raw, file.urlPath, {
      root,
      dotfiles: 'ignore',
      index: false,
      acceptRanges: true,
      etag: settings.etag ?? true,
      lastModified: settings.lastModified ?? true,
      cacheControl: settings.cacheControl !== false,
      maxAge: settings.maxAge ?? 0,
      immutable: settings.immutable ?? false,
    });
    sending.on('error', (error: Error & { status?: number; headers?: Record<string, string> }) => {
      done = true;
      target.destroy();
      const status = error.status ?? 500;
      reject(status >= 400 && status < 500 ? new HTTPError(status, undefined, error.headers) : error);
    });
    // Only if the file became a directory since it was found.
    sending.on('directory', () => {
      done = true;
      target.destroy();
      reject(new HTTPError(404));
    });
    sending.on('stream', (stream: ReadStream) => {
      source = stream;
      answer();
    });
    // No body to stream (HEAD, 304): `send` ends the target.
    target.once('finish', answer);
    sending.pipe(target as never);
  });
}
