import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openapiError } from './errors.ts';
import { initializer } from './initializer.ts';

/** One file of the page: its bytes, type and a validator that changes with swagger-ui-dist's version. */
export interface UiFile {
  readonly body: Uint8Array;
  readonly type: string;
  readonly etag: string;
}

// The files of swagger-ui-dist the page loads (the rest of the package is other bundles and
// source maps), with their types. Only these names are served: nothing else of node_modules is
// reachable through the URL.
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/**
 * The page at `ui` (Swagger UI from the swagger-ui-dist package, read from node_modules once, at
 * `ready()`): `index.html`, a script that points Swagger UI at the document (a file rather than
 * an inline script, so that a Content-Security-Policy without 'unsafe-inline' allows it), and the
 * package's assets, each by name. The script is `initializer()`'s.
 *
 * @example
 * ```ts
 * const files = await loadUiFiles('/docs', '/openapi.json', 'Books');
 * files.get('swagger-ui.css')?.type; // 'text/css; charset=utf-8'
 * ```
 */
export async function loadUiFiles(ui: string, json: string, title: string): Promise<ReadonlyMap<string, UiFile>> {
  let root: string;
  let version: string;
  try {
    const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
    root = dirname(manifest);
    version = (JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version;
  } catch (error) {
    throw openapiError('HICKORY_ERR_OPENAPI_UI_FILES', (error as Error).message, error);
  }
  const files = new Map<string, UiFile>();
  const text = (body: string, type: string, tag: string): UiFile => ({ body: Buffer.from(body), type, etag: `"${tag}-${version}-${hash(body)}"` });
  for (const [name, type] of Object.entries(ASSETS)) {
    try {
      files.set(name, { body: await readFile(join(root, name)), type, etag: `"swagger-ui-dist-${version}-${name}"` });
    } catch (error) {
      throw openapiError('HICKORY_ERR_OPENAPI_UI_FILES', (error as Error).message, error);
    }
  }
  files.set('index.html', text(indexPage(ui, title), 'text/html; charset=utf-8', 'index'));
  files.set('initializer.js', text(initializer(json), 'text/javascript; charset=utf-8', 'initializer'));
  return files;
}

function indexPage(ui: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${ui}/swagger-ui.css">
<link rel="icon" type="image/png" href="${ui}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${ui}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ui}/swagger-ui-bundle.js"></script>
<script src="${ui}/initializer.js"></script>
</body>
</html>
`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// FNV-1a, for a validator of the generated files: not a security boundary, only a change detector.
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}
