import { maskedUrl, maskedValue } from './credential-names.ts';
import { escapeHtml } from './error-body.ts';
import type { Request } from './request.ts';

/**
 * A part of the debug page a plugin adds: a title and rows of name and value (`Route walked`,
 * `Hooks run`). Made only for a request that failed, with `debug: true`.
 *
 * @example
 * ```ts
 * kernel.addDebugSection((request) => ({ title: 'Tenant', rows: [['id', String(request.context.tenant)]] }));
 * ```
 */
export interface DebugSection {
  readonly title: string;
  readonly rows: ReadonlyArray<readonly [name: string, value: string]>;
}

/** Makes a {@link DebugSection} for a failed request, or nothing to add. */
export type DebugSectionSource = (request: Request) => DebugSection | undefined;

/**
 * The request's headers for the debug page, credentials masked (`cookie: ••• (masked, 42 characters)`):
 * every header whose name contains `token`, `secret`, `key`, `auth`, `session`, `password` or `cookie`.
 *
 * @example
 * ```ts
 * maskedHeaders({ cookie: 'sid=1', accept: 'text/html' }); // [['accept', 'text/html'], ['cookie', '••• (masked, 5 characters)']]
 * ```
 */
export function maskedHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Array<[string, string]> {
  return Object.keys(headers)
    .sort()
    .map((name) => {
      const raw = headers[name];
      const value = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
      return [name, maskedValue(name, value)];
    });
}

/**
 * The HTML debug page of an unhandled error: its name, message and stack (Node maps it to the
 * TypeScript lines when source maps are on, which `debug: true` turns on), the request, and the
 * sections plugins add. Everything shown is escaped; credentials (headers and query values whose
 * names say so) are masked.
 *
 * @example
 * ```ts
 * response.body = debugPage(error, request, [{ title: 'Route walked', rows: [['handler', 'Books.show']] }]);
 * ```
 */
export function debugPage(error: unknown, request: Request, sections: readonly DebugSection[]): string {
  const { name, message, stack } = describeError(error);
  const raw = request.raw;
  const requestRows: Array<[string, string]> = [
    ['method', request.method],
    // Query values named like credentials (`?token=`, `?password=`) are masked too.
    ['url', maskedUrl(request.url)],
    ['HTTP version', raw.httpVersion ?? ''],
  ];
  const table = (rows: ReadonlyArray<readonly [string, string]>) =>
    `<table>${rows.map(([key, value]) => `<tr><th>${escapeHtml(key)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;
  const section = (title: string, body: string, id: string) => `<section id="${id}"><h2>${escapeHtml(title)}</h2>${body}</section>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>500: ' + escapeHtml(name) + '</title>',
    '<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}h1{color:#a00}pre{background:#f6f6f6;padding:1em;overflow:auto}',
    'th{text-align:left;padding-right:1em;vertical-align:top;font-weight:600}td{font-family:monospace;word-break:break-all}',
    '.note{color:#666}</style></head><body>',
    `<h1>${escapeHtml(name)}: ${escapeHtml(message)}</h1>`,
    '<p class="note">Shown because the configuration sets <code>debug: true</code>. Never in production: there, this request gets the plain 500.</p>',
    section('Stack', `<pre id="stack">${escapeHtml(stack)}</pre>`, 'stack-section'),
    section('Request', table(requestRows), 'request'),
    section('Headers', table(maskedHeaders(raw.headers)), 'headers'),
    ...sections.map((s, i) => section(s.title, table(s.rows), `section-${i}`)),
    '</body></html>',
  ].join('\n');
}

function describeError(error: unknown): { name: string; message: string; stack: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack ?? `${error.name}: ${error.message}` };
  let text: string;
  try {
    text = String(error);
  } catch {
    text = typeof error;
  }
  return { name: 'Thrown value', message: text, stack: `${text} (not an Error: no stack)` };
}
