import type { Exchange } from './current.ts';
import { BODY_HEADERS } from './error-body.ts';
import type { HTTPError } from './http-error.ts';
import type { Request } from './request.ts';
import type { Response } from './response.ts';

// Marks a request whose error document is being produced, so an error inside it falls back to
// the default body instead of looping.
const ERROR_DOCUMENT = Symbol('hickory.errorDocument') as unknown as string;

/**
 * The path of the error document (`errors` configuration) for an error of this request, if it
 * has one: an error status with a configured path, outside another error document.
 *
 * @example
 * ```ts
 * errorDocumentPath(new HTTPError(404), request, { 404: '/error/404' }); // '/error/404'
 * ```
 */
export function errorDocumentPath(error: HTTPError, request: Request, errorPaths: Readonly<Record<number, string>> | undefined): string | undefined {
  const path = errorPaths?.[error.status];
  if (!path || error.status < 400 || request.context[ERROR_DOCUMENT] !== undefined) return undefined;
  return path;
}

/** An error to be answered by its error document, and that document's path. */
export interface ErrorDocument {
  readonly error: HTTPError;
  readonly path: string;
}

/** What {@link enterErrorDocument} changed, for {@link leaveErrorDocument} to restore. */
export interface ErrorDocumentVisit {
  readonly error: HTTPError;
  readonly path: string;
  readonly original: { readonly url: string; readonly path: string; readonly query: string; readonly method: string; readonly response: Response };
}

/**
 * Turns the exchange into the internal GET (HEAD stays HEAD) of the error document at `path`, with
 * a new response; the pipeline then routes it without reading the body (the body may be what
 * failed). `environ` keeps what the client asked for (`hickory.original_path`, `…_url`).
 *
 * @example
 * ```ts
 * const visit = enterErrorDocument(exchange, error, '/error/404', new Response());
 * // … route the exchange …
 * leaveErrorDocument(exchange, visit, true);
 * ```
 */
export function enterErrorDocument(exchange: Exchange, error: HTTPError, path: string, response: Response): ErrorDocumentVisit {
  const { request } = exchange;
  const original = { url: request.url, path: request.path, query: request.query_string, method: request.method, response: exchange.response };
  request.context[ERROR_DOCUMENT] = error.status;
  request.environ['hickory.original_path'] = original.path;
  request.environ['hickory.original_url'] = original.url;
  exchange.response = response;
  request.rewrite(path);
  if (request.method !== 'HEAD') request.method = 'GET';
  return { error, path, original };
}

/**
 * Restores the request's target and method after its error document was routed. `rendered`: the
 * page is the response (the error's status, the headers set before the error and the error's own
 * headers on it); else the original response is put back, for the default error body.
 */
export function leaveErrorDocument(exchange: Exchange, visit: ErrorDocumentVisit, rendered: boolean): void {
  const { request } = exchange;
  const { error, original } = visit;
  request.rewrite(original.path);
  request.query_string = original.query;
  request.url = original.url;
  request.method = original.method;
  delete request.context[ERROR_DOCUMENT];
  if (!rendered) {
    exchange.response = original.response;
    return;
  }
  const page = exchange.response;
  page.status = error.status;
  // What plugins and the handler set before the error (a request id, CORS) holds for the page too.
  for (const [name, value] of original.response.headerMap) if (!BODY_HEADERS.has(name.toLowerCase()) && !page.headerMap.has(name)) page.headerMap.set(name, value);
  if (error.headers) for (const name of Object.keys(error.headers)) page.headerMap.set(name, error.headers[name]);
}
