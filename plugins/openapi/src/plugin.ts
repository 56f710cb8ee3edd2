import { createHash } from 'node:crypto';
import { definePlugin, Response, type Request } from '@hickory/core';
import { tapDirect } from '@hickory/core/kit';
import { dispatchPlugin, openApiDocument } from '@hickory/dispatch';
import { checkOptions, type OpenapiPluginOptions } from './options.ts';
import { loadUiFiles, type UiFile } from './ui-files.ts';

/**
 * Serves the app's OpenAPI 3.1 document (`openApiDocument`, made once at `ready()`) at `json`
 * and an interactive page (Swagger UI, from the swagger-ui-dist package in node_modules: no
 * CDN, no request leaves the site) at `ui`. Both are answered before routing, for GET and HEAD,
 * with `ETag` (304 on `If-None-Match`) and `Cache-Control`; other methods go on to routing. The
 * document's security schemes come from the app's `openapi` configuration, as for
 * `hickory routes --openapi`.
 *
 * @example
 * ```ts
 * createApp({ root: new Root(), plugins: [[openapiPlugin, { title: 'Books', version: '1.0.0' }]] });
 * // GET /openapi.json → the document; GET /docs → the page
 * ```
 */
export const openapiPlugin = definePlugin<OpenapiPluginOptions | undefined>({
  name: 'openapi',
  // The document is the route map of dispatch's tree.
  dependencies: [dispatchPlugin],
  apply(kernel, options) {
    const settings = checkOptions(options);
    let documentFile: UiFile | undefined;
    let uiFiles: ReadonlyMap<string, UiFile> | undefined;

    kernel.hooks.ready.tapPromise('openapi', async () => {
      if (settings.json !== undefined) {
        const text = JSON.stringify(openApiDocument(kernel, { title: settings.title, version: settings.version }));
        documentFile = { body: Buffer.from(text), type: 'application/json; charset=utf-8', etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
      }
      if (settings.ui !== undefined) uiFiles = await loadUiFiles(settings.ui, settings.json ?? '', settings.title ?? 'API documentation');
    });

    tapDirect(
      kernel.hooks.beforeRoute,
      'openapi',
      (request) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
        const { path } = request;
        if (path === settings.json && documentFile !== undefined) return answer(request, documentFile, DOCUMENT_CACHE);
        if (settings.ui === undefined || uiFiles === undefined || !path.startsWith(settings.ui)) return undefined;
        const rest = path.slice(settings.ui.length);
        if (rest === '' || rest === '/') return answer(request, uiFiles.get('index.html')!, DOCUMENT_CACHE);
        const file = rest.startsWith('/') ? uiFiles.get(rest.slice(1)) : undefined;
        if (file === undefined || rest.slice(1) === 'index.html') return undefined;
        return answer(request, file, rest === '/initializer.js' ? DOCUMENT_CACHE : ASSET_CACHE);
      },
      { active: () => settings.json !== undefined || settings.ui !== undefined },
    );
  },
});

// The document and the page change with the app: revalidated on each use. The package's files
// change only with its version (in their ETag): a day without asking.
const DOCUMENT_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=86400';

function answer(request: Request, file: UiFile, cacheControl: string): Response {
  const headers = { 'Cache-Control': cacheControl, ETag: file.etag };
  if (matches(request.raw.headers['if-none-match'], file.etag)) return new Response({ status: 304, headers });
  return new Response({ status: 200, headers: { ...headers, 'Content-Type': file.type, 'X-Content-Type-Options': 'nosniff' }, body: file.body });
}

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
