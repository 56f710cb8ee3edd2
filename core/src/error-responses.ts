import { adoptResponse, type Exchange } from './current.ts';
import { BODY_HEADERS, dropBodyHeaders, writeDefaultError } from './error-body.ts';
import { debugPage, type DebugSection } from './debug-page.ts';
import type { HooksOf } from './hooks.ts';
import { coreError } from './errors.ts';
import { HTTPError } from './http-error.ts';
import { HTTPRedirect } from './redirect.ts';
import type { Logger } from './logger.ts';
import type { Request } from './request.ts';
import { Response } from './response.ts';

/** What {@link respondToError} needs of the kernel. */
export interface ErrorHost {
  readonly hooks: Pick<HooksOf<unknown>, 'onAbort' | 'onError'>;
  logger(): Logger;
  /** Logs a request that failed with an error that is not an `HTTPError` (the 500s). */
  failed(request: Request, error: unknown, message: string): void;
  /** Whether `onAbort` / `onError` have taps (read at `ready()`). */
  tapped(): { readonly onAbort: boolean; readonly onError: boolean };
  /** The `errors` configuration: status → path of the error document. */
  errorPaths(): Readonly<Record<number, string>> | undefined;
  /** The `redirect_origins` configuration: where a redirect may leave the site to. */
  redirectOrigins(): ReadonlySet<string>;
  /** A new response of the configured `response_cls`. */
  newResponse(): Response;
  /** With `debug: true` (not in production): the plugins' sections of the debug page for a request. */
  readonly debugSections?: ((request: Request) => DebugSection[]) | undefined;
  /** Routes and handles the exchange's request as it now stands, without reading its body. */
  dispatchWithoutBody(exchange: Exchange): Promise<void> | undefined;
}

/**
 * Turns an error into the exchange's response. An `HTTPError` is stored in
 * `environ['hickory.original_exception']`, offered to `onAbort` taps (a `Response` they return
 * replaces the response and keeps the error's headers), then to the `errors` document for its
 * status, then written as the default error body. Any other error is logged, offered to `onError`
 * taps, and becomes a generic 500 (through its error document when there is one).
 *
 * @example
 * ```ts
 * await respondToError(new HTTPError(404), exchange, host);
 * exchange.response.status; // 404
 * ```
 */
export async function respondToError(thrown: unknown, exchange: Exchange, host: ErrorHost): Promise<void> {
  const { request } = exchange;
  const error = refuseOpenRedirect(thrown, host);
  if (error instanceof HTTPError) {
    request.environ['hickory.original_exception'] = error;
    if (host.tapped().onAbort) {
      try {
        const replacement = await host.hooks.onAbort.promise(error, request, exchange.response);
        if (replacement instanceof Response) {
          // The error's own headers (Allow on a 405, WWW-Authenticate on a 401) belong to any
          // response for it; the replacement may still set its own value.
          if (error.headers) for (const name of Object.keys(error.headers)) if (!replacement.headerMap.has(name)) replacement.headerMap.set(name, error.headers[name]);
          adoptResponse(exchange, replacement);
          return;
        }
      } catch (tapError) {
        host.logger().error(`an onAbort tap failed for ${request.method} ${request.path}`, tapError);
      }
    }
    if (await errorDocument(error, exchange, host)) return;
    writeDefaultError(error, request.raw, exchange.response);
    return;
  }
  host.failed(request, error, `${request.method} ${request.path} failed`);
  if (host.tapped().onError) {
    try {
      const replacement = await host.hooks.onError.promise(error, request, exchange.response);
      if (replacement instanceof Response) {
        adoptResponse(exchange, replacement);
        return;
      }
    } catch (tapError) {
      host.logger().error('an onError tap failed', tapError);
    }
  }
  const generic = new HTTPError(500);
  request.environ['hickory.original_exception'] = generic;
  if (host.debugSections !== undefined) {
    writeDebugPage(error, exchange, host.debugSections(request));
    return;
  }
  if (await errorDocument(generic, exchange, host)) return;
  writeDefaultError(generic, request.raw, exchange.response);
}

// `debug: true`: the page with the stack instead of the plain 500 (headers set before the error,
// such as a request id, are kept; the body's are not).
function writeDebugPage(error: unknown, exchange: Exchange, sections: readonly DebugSection[]): void {
  const response = exchange.response;
  dropBodyHeaders(response);
  response.status = 500;
  response.headerMap.set('Content-Type', 'text/html; charset=utf-8');
  response.headerMap.set('Cache-Control', 'no-store');
  response.body = debugPage(error, exchange.request, sections);
}

// A redirect off the site that neither `external: true` nor `redirect_origins` allows is the
// application's mistake (often a target taken from input): a 500, logged with the fix.
function refuseOpenRedirect(error: unknown, host: ErrorHost): unknown {
  if (!(error instanceof HTTPRedirect) || error.externalOrigin === undefined || host.redirectOrigins().has(error.externalOrigin)) return error;
  return coreError('HICKORY_ERR_REDIRECT_EXTERNAL', JSON.stringify(error.location), error.externalOrigin);
}

// Marks a request whose error document is being produced, so an error inside it falls back to
// the default body instead of looping.
const ERROR_DOCUMENT = Symbol('hickory.errorDocument') as unknown as string;

// The `errors` config: the error page is an internal GET (HEAD stays HEAD) to its path, without
// reading the body; the status is kept. The request's target and method are restored afterwards.
async function errorDocument(error: HTTPError, exchange: Exchange, host: ErrorHost): Promise<boolean> {
  const path = host.errorPaths()?.[error.status];
  if (!path || error.status < 400 || exchange.request.context[ERROR_DOCUMENT] !== undefined) return false;
  const { request } = exchange;
  const original = { url: request.url, path: request.path, query: request.query_string, method: request.method, response: exchange.response };
  request.context[ERROR_DOCUMENT] = error.status;
  // The error page is routed at its own path; these keep what the client asked for.
  request.environ['hickory.original_path'] = original.path;
  request.environ['hickory.original_url'] = original.url;
  exchange.response = host.newResponse();
  try {
    request.rewrite(path);
    if (request.method !== 'HEAD') request.method = 'GET';
    await host.dispatchWithoutBody(exchange);
    const page = exchange.response;
    page.status = error.status;
    // What plugins and the handler set before the error (a request id, CORS) holds for the page too.
    for (const [name, value] of original.response.headerMap) if (!BODY_HEADERS.has(name.toLowerCase()) && !page.headerMap.has(name)) page.headerMap.set(name, value);
    if (error.headers) for (const name of Object.keys(error.headers)) page.headerMap.set(name, error.headers[name]);
    return true;
  } catch (pageError) {
    host.logger().error(`the error document ${path} for ${error.status} failed; sending the default error body`, pageError);
    exchange.response = original.response;
    return false;
  } finally {
    request.rewrite(original.path);
    request.query_string = original.query;
    request.url = original.url;
    request.method = original.method;
    delete request.context[ERROR_DOCUMENT];
  }
}
