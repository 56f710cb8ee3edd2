import type { IncomingMessage } from 'node:http';
import { preferredType } from './accept.ts';
import { describe, type HTTPError } from './http-error.ts';
import type { Response } from './response.ts';

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * ```ts
 * escapeHtml('<b>"x"</b>'); // '&lt;b&gt;&quot;x&quot;&lt;/b&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const HTML_FIRST = ['text/html', 'application/json'];
const JSON_FIRST = ['application/json', 'text/html'];

/**
 * True when the client prefers JSON to HTML by its `Accept` header (read as content negotiation
 * reads it: {@link preferredType}). When it states no preference (no `Accept`, `*\/*`, or the two
 * at the same quality), `fallback` decides: the media type the request's handler answers in, so
 * that a JSON API's errors are JSON to curl and fetch; HTML when there is none.
 *
 * @example
 * ```ts
 * prefersJson(req); // true for `Accept: application/json`
 * prefersJson(req, 'application/json'); // also true for `Accept: *\/*`
 * ```
 */
function prefersJson(raw: IncomingMessage, fallback?: string): boolean {
  const accept = raw.headers.accept || '*/*';
  return preferredType(accept, fallback === 'application/json' ? JSON_FIRST : HTML_FIRST) === 'application/json';
}

/**
 * Headers an error response replaces: those that describe a body (the body they described is not
 * what is sent) or point elsewhere, and `Set-Cookie` (what a failed handler began must not be
 * committed to the client; an error that means to set a cookie carries it in its own headers).
 * Every other header set before the error — by a `beforeRoute` tap, a `response_cls`
 * constructor, the handler, an `onAbort`/`onError` tap — is kept (a request id, CORS, security
 * headers). A redirect keeps the `Set-Cookie` headers set before it: it is not a failure.
 */
export const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-disposition',
  'content-range',
  'content-language',
  'content-location',
  'etag',
  'last-modified',
  'transfer-encoding',
  'location',
  'set-cookie',
]);

/**
 * Removes the {@link BODY_HEADERS} from a response that is about to get another body (but
 * `Set-Cookie` when `keepCookies`: a redirect is a success, and signing in then redirecting is
 * the common case).
 *
 * @example
 * ```ts
 * dropBodyHeaders(response); // X-Request-Id stays, Content-Type goes
 * ```
 */
export function dropBodyHeaders(response: Response, keepCookies = false): void {
  for (const name of BODY_HEADERS) if (!keepCookies || name !== 'set-cookie') response.headerMap.delete(name);
}

/**
 * Fills `response` with the default error response for `error`: its status and headers, and a
 * JSON body `{"code","title","description"}` for clients that prefer JSON, else a small HTML
 * page; a client that states no preference gets `fallback`'s kind (the media type the request's
 * handler answers in, `Lookup.mediaType`), else HTML. 5xx descriptions are generic; redirects
 * have an empty body. Headers set before the error are kept but for those that describe a body
 * ({@link BODY_HEADERS}).
 *
 * @example
 * ```ts
 * writeDefaultError(new HTTPError(404), req, response); // 404, HTML page "404 Not Found"
 * writeDefaultError(new HTTPError(409), req, response, 'application/json'); // JSON unless the client asks for HTML
 * ```
 */
export function writeDefaultError(error: HTTPError, raw: IncomingMessage, response: Response, fallback?: string): void {
  dropBodyHeaders(response, error.status < 400);
  response.status = error.status;
  if (error.headers) for (const name of Object.keys(error.headers)) response.headerMap.set(name, error.headers[name]);
  if (error.status < 400) {
    response.body = '';
    return;
  }
  if (prefersJson(raw, fallback)) {
    response.headerMap.set('Content-Type', 'application/json; charset=utf-8');
    response.body = JSON.stringify(error.toJSON());
    return;
  }
  const title = `${error.status} ${escapeHtml(error.title)}`;
  response.headerMap.set('Content-Type', 'text/html; charset=utf-8');
  response.body =
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1><p>${escapeHtml(describe(error))}</p></body></html>\n`;
}
