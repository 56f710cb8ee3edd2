import { definePlugin, HTTPError, Response, type Request } from '@hickory/core';
import { isThenable, tapDirect, varyOn } from '@hickory/core/kit';
import { corsSettings, type CorsOptions, type CorsSettings } from './options.ts';
import { isOriginSyntax } from './origin.ts';

// Written here rather than by wrapping the `cors` npm package: that is Express middleware, which
// sets headers on Node's response when the request arrives and ends preflights itself through a
// callback. Here a preflight is a `beforeRoute` answer and the headers of every other response are
// added in `beforeSend`, the one place every response passes (errors, 404, static files), with the
// `cors` package's semantics and defaults.

// Preflights carry no cookies and no `Authorization`: they are answered before the other plugins'
// `beforeRoute` taps (Pecan's `on_route` hooks, an authentication check) could refuse them.
const PREFLIGHT_STAGE = -100;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TOKEN_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:[ \t]*,[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/**
 * CORS: a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 204
 * before routing, so no handler runs; every other response (errors, 404 and static files
 * included) gets the CORS headers when its `Origin` is allowed, and `Vary: Origin` whenever the
 * answer depends on the origin. A disallowed origin gets no CORS header at all, so its browser
 * refuses the page's script the response. Options are checked by `use()` (coded errors); `'*'`
 * with `credentials: true` is refused there (`HICKORY_ERR_CORS_CREDENTIALS_WILDCARD`).
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(corsPlugin, { origin: ['https://app.example.com'], credentials: true, maxAge: 600 });
 * ```
 */
export const corsPlugin = definePlugin<CorsOptions>({
  name: 'cors',
  apply(kernel, options) {
    const settings = corsSettings(options);
    kernel.hooks.beforeRoute.tap({ name: 'cors', stage: PREFLIGHT_STAGE }, (request) => {
      const preflight = preflightOf(request);
      return preflight === undefined ? undefined : answerPreflight(settings, request, preflight);
    });
    tapDirect(kernel.hooks.beforeSend, 'cors', (request, response) => (preflightOf(request) === undefined ? addCorsHeaders(settings, request, response) : undefined));
  },
});

interface Preflight {
  readonly origin: string;
  readonly method: string;
  readonly headers: string | undefined;
}

// A preflight is recognised by its headers alone (as the Fetch standard sends it), so `beforeSend`
// can tell the response it answered without remembering the request.
function preflightOf(request: Request): Preflight | undefined {
  if (request.method !== 'OPTIONS') return undefined;
  const { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } = request.raw.headers;
  if (origin === undefined || method === undefined) return undefined;
  return { origin, method, headers };
}

function answerPreflight(settings: CorsSettings, request: Request, preflight: Preflight): Response | Promise<Response> {
  if (!TOKEN.test(preflight.method)) throw new HTTPError(400, 'Access-Control-Request-Method must be one method name (a token such as PUT)');
  const requested = preflight.headers?.trim();
  if (requested !== undefined && requested !== '' && !TOKEN_LIST.test(requested)) {
    throw new HTTPError(400, 'Access-Control-Request-Headers must be a comma-separated list of header names');
  }
  const response = new Response({ status: 204 });
  const allowed = allows(settings, request, preflight.origin);
  if (isThenable(allowed)) return allowed.then((yes) => preflightHeaders(settings, response, preflight.origin, yes, requested));
  return preflightHeaders(settings, response, preflight.origin, allowed, requested);
}

function preflightHeaders(settings: CorsSettings, response: Response, origin: string, allowed: boolean, requested: string | undefined): Response {
  if (!settings.origin.wildcard) varyOn(response, 'Origin');
  if (!allowed) return response;
  const headers = response.headerMap;
  headers.setKnown('access-control-allow-origin', 'Access-Control-Allow-Origin', settings.origin.wildcard ? '*' : origin);
  if (settings.credentials) headers.setKnown('access-control-allow-credentials', 'Access-Control-Allow-Credentials', 'true');
  headers.setKnown('access-control-allow-methods', 'Access-Control-Allow-Methods', settings.methods);
  if (settings.allowedHeaders !== undefined) {
    headers.setKnown('access-control-allow-headers', 'Access-Control-Allow-Headers', settings.allowedHeaders);
  } else {
    // Reflected: checked above to be a list of header names, so it cannot break the header.
    varyOn(response, 'Access-Control-Request-Headers');
    if (requested !== undefined && requested !== '') headers.setKnown('access-control-allow-headers', 'Access-Control-Allow-Headers', requested);
  }
  if (settings.maxAge !== undefined) headers.setKnown('access-control-max-age', 'Access-Control-Max-Age', settings.maxAge);
  return response;
}

// Any other response: headers only for an allowed origin. With '*' the answer is the same for
// every caller (and for requests without `Origin`), so it needs no `Vary`; otherwise it depends on
// `Origin` even when none was sent, or a cache could hand one caller's answer to another.
function addCorsHeaders(settings: CorsSettings, request: Request, response: Response): void | Promise<void> {
  const origin = request.raw.headers.origin;
  if (settings.origin.wildcard) {
    allowResponse(settings, response, '*');
    return undefined;
  }
  varyOn(response, 'Origin');
  if (origin === undefined) return undefined;
  const allowed = allows(settings, request, origin);
  if (isThenable(allowed)) {
    return allowed.then((yes) => {
      if (yes) allowResponse(settings, response, origin);
    });
  }
  if (allowed) allowResponse(settings, response, origin);
  return undefined;
}

function allowResponse(settings: CorsSettings, response: Response, allowOrigin: string): void {
  const headers = response.headerMap;
  // A handler that answered CORS itself (a public endpoint with its own policy) keeps its answer.
  if (headers.hasKey('access-control-allow-origin')) return;
  headers.setKnown('access-control-allow-origin', 'Access-Control-Allow-Origin', allowOrigin);
  if (settings.credentials) headers.setKnown('access-control-allow-credentials', 'Access-Control-Allow-Credentials', 'true');
  if (settings.exposedHeaders !== undefined) headers.setKnown('access-control-expose-headers', 'Access-Control-Expose-Headers', settings.exposedHeaders);
}

// Text that is not an origin is never allowed (nor reflected), whatever the option would say.
function allows(settings: CorsSettings, request: Request, origin: string): boolean | Promise<boolean> {
  if (settings.origin.wildcard) return true;
  return isOriginSyntax(origin) && settings.origin.allows(origin, request);
}
