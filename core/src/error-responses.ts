import { adoptResponse, type Exchange } from './current.ts';
import { dropBodyHeaders, writeDefaultError } from './error-body.ts';
import { errorDocumentPath, type ErrorDocument } from './error-document.ts';
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
  readonly tapped: { readonly onAbort: boolean; readonly onError: boolean };
  /** The `errors` configuration: status → path of the error document. */
  readonly errorPaths: Readonly<Record<number, string>> | undefined;
  /** The `redirect_origins` configuration: where a redirect may leave the site to. */
  readonly redirectOrigins: ReadonlySet<string>;
  /** With `debug: true` (not in production): the plugins' sections of the debug page for a request. */
  readonly debugSections?: ((request: Request) => DebugSection[]) | undefined;
}

/**
 * Turns an error into the exchange's response. An `HTTPError` is stored in
 * `environ['hickory.original_exception']` and offered to `onAbort` taps (a `Response` they return
 * replaces the response and keeps the error's headers). Any other error is logged, offered to
 * `onError` taps, and becomes a generic 500 (the debug page with `debug: true`). What no tap
 * answered gets the default error body, unless the `errors` configuration has a document for its
 * status: then the error is given back for the pipeline to route that document (see
 * `error-document.ts`).
 *
 * @example
 * ```ts
 * const document = await respondToError(new HTTPError(404), exchange, host);
 * exchange.response.status; // 404 (when `document` is undefined)
 * ```
 */
export async function respondToError(thrown: unknown, exchange: Exchange, host: ErrorHost): Promise<ErrorDocument | undefined> {
  const { request } = exchange;
  const error = refuseOpenRedirect(thrown, host);
  if (error instanceof HTTPError) {
    request.environ['hickory.original_exception'] = error;
    if (host.tapped.onAbort) {
      try {
        const replacement = await host.hooks.onAbort.promise(error, request, exchange.response);
        if (replacement instanceof Response) {
          // The error's own headers (Allow on a 405, WWW-Authenticate on a 401) belong to any
          // response for it; the replacement may still set its own value.
          if (error.headers) for (const name of Object.keys(error.headers)) if (!replacement.headerMap.has(name)) replacement.headerMap.set(name, error.headers[name]);
          adoptResponse(exchange, replacement);
          return undefined;
        }
      } catch (tapError) {
        host.logger().error(`an onAbort tap failed for ${request.method} ${request.path}`, tapError);
      }
    }
    return documentedOrDefault(error, exchange, host);
  }
  host.failed(request, error, `${request.method} ${request.path} failed`);
  if (host.tapped.onError) {
    try {
      const replacement = await host.hooks.onError.promise(error, request, exchange.response);
      if (replacement instanceof Response) {
        adoptResponse(exchange, replacement);
        return undefined;
      }
    } catch (tapError) {
      host.logger().error('an onError tap failed', tapError);
    }
  }
  const generic = new HTTPError(500);
  request.environ['hickory.original_exception'] = generic;
  if (host.debugSections !== undefined) {
    writeDebugPage(error, exchange, host.debugSections(request));
    return undefined;
  }
  return documentedOrDefault(generic, exchange, host);
}

// The error and its document's path when it has one to route; else its default body, written now.
function documentedOrDefault(error: HTTPError, exchange: Exchange, host: ErrorHost): ErrorDocument | undefined {
  const path = errorDocumentPath(error, exchange.request, host.errorPaths);
  if (path !== undefined) return { error, path };
  writeDefaultError(error, exchange.request.raw, exchange.response, exchange.request.lookup?.mediaType);
  return undefined;
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
  if (!(error instanceof HTTPRedirect) || error.externalOrigin === undefined || host.redirectOrigins.has(error.externalOrigin)) return error;
  return coreError('HICKORY_ERR_REDIRECT_EXTERNAL', JSON.stringify(error.location), error.externalOrigin);
}
