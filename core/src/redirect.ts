import { coreError } from './errors.ts';
import { HTTPError, type ErrorHeaders } from './http-error.ts';
import { currentExchange, explicitAppRunning } from './current.ts';
import { Request } from './request.ts';

/** Options of {@link redirect}. */
export interface RedirectOptions {
  /** Re-dispatch to `location` inside the same request instead of answering the client. */
  internal?: boolean;
  /** The redirect status: 301, 302 (default), 303, 307 or 308. */
  code?: number;
  /** Extra headers for the redirect response. */
  headers?: ErrorHeaders;
  /**
   * Add a trailing slash to the path of `location` (its query kept), as Pecan does; without a
   * location, to the current request's path (query kept).
   */
  add_slash?: boolean;
  /**
   * The request whose path `add_slash` completes when no location is given. Needed with
   * `use_context_locals: false` (pass the one the handler receives); otherwise the current request.
   */
  request?: Request;
  /**
   * Allow a target on another site (an absolute `http:`/`https:` URL). Without it such a target
   * is refused unless its origin is in the `redirect_origins` configuration: a redirect built from
   * input must not send users elsewhere (an open redirect).
   */
  external?: boolean;
}

const REDIRECT_CODES = new Set([300, 301, 302, 303, 305, 307, 308]);

/**
 * A redirect response in flight: an {@link HTTPError} with a 3xx status and a `Location` header.
 *
 * @example
 * ```ts
 * try { redirect('/login'); } catch (e) { (e as HTTPRedirect).location; // '/login' }
 * ```
 */
export class HTTPRedirect extends HTTPError {
  readonly location: string;
  /**
   * The origin (`https://host:port`) of an absolute target, which the kernel checks against
   * `redirect_origins`; `undefined` for a path on this site or a target allowed with `external`.
   */
  readonly externalOrigin: string | undefined;
  constructor(location: string, code: number, headers?: ErrorHeaders, externalOrigin?: string) {
    super(code, undefined, { ...headers, Location: location });
    this.name = 'HTTPRedirect';
    this.location = location;
    this.externalOrigin = externalOrigin;
  }
}

/**
 * An internal redirect in flight: the kernel routes the same request again to `location`.
 *
 * @example
 * ```ts
 * throw new InternalRedirect('/error/404');
 * ```
 */
export class InternalRedirect extends Error {
  readonly location: string;
  constructor(location: string) {
    super(`internal redirect to ${location}`);
    this.name = 'InternalRedirect';
    this.location = location;
  }
}

// A URL scheme: what makes a target leave the site (`https:evil.example`, `javascript:…`).
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const WEB_SCHEMES = new Set(['http', 'https']);

/**
 * Redirects the client (HTTP 302 unless `code` says otherwise), or with `internal: true`
 * re-dispatches inside the same request, keeping `request.context`; internal loops are detected.
 *
 * The target is made safe, since it is often built from input: control characters (CR, LF, NUL,
 * TAB, …) are refused, surrounding spaces trimmed, a leading `//` or `/\` (another host) folded to
 * `/`, and non-ASCII characters percent-encoded as UTF-8. A target with a scheme leaves the site:
 * only `http:`/`https:` are allowed, and only with `external: true` or when its origin is listed in
 * the `redirect_origins` configuration (otherwise the request gets a 500 and the log says why).
 *
 * @example
 * ```ts
 * redirect('/books/');                      // 302 Location: /books/
 * redirect('/login', { code: 303 });
 * redirect('/other', { internal: true });   // the client never sees it
 * redirect('/catalog', { add_slash: true }); // Location: /catalog/
 * redirect(undefined, { add_slash: true }); // /catalog?x=1 → /catalog/?x=1
 * redirect(undefined, { add_slash: true, request }); // the same, with use_context_locals: false
 * redirect('https://accounts.example/login', { external: true });
 * ```
 */
export function redirect(location?: string, options: RedirectOptions = {}): never {
  let target = location;
  if (options.add_slash) target = target === undefined ? pathWithSlash(options.request) : withSlash(target);
  if (typeof target !== 'string' || target.length === 0) throw coreError('HICKORY_ERR_REDIRECT', 'the location must be a non-empty string.');
  if (/[\u0000-\u001f\u007f]/.test(target)) throw coreError('HICKORY_ERR_REDIRECT', 'the location contains a control character (CR, LF, NUL, TAB, …).');
  // Browsers strip leading and trailing spaces before resolving: ` //host` is `//host`.
  target = target.replace(/^ +| +$/g, '');
  target = target.replace(/^[/\\]{2,}/, '/');
  target = percentEncodeNonAscii(target);
  const scheme = SCHEME.exec(target)?.[1]?.toLowerCase();
  if (options.internal) {
    // As Pecan: a status for a redirect the client never sees is a mistake worth naming.
    if (options.code !== undefined) {
      throw coreError('HICKORY_ERR_REDIRECT', `an internal redirect re-dispatches inside the request, so no status code reaches the client: drop \`code\` (${String(options.code)}), or drop \`internal\` to redirect the client with it.`);
    }
    if (!target.startsWith('/')) throw coreError('HICKORY_ERR_REDIRECT', `an internal redirect needs a path starting with "/", got "${target}".`);
    throw new InternalRedirect(target);
  }
  const code = options.code ?? 302;
  if (!REDIRECT_CODES.has(code)) throw coreError('HICKORY_ERR_REDIRECT', `${code} is not a redirect status (use 301, 302, 303, 307 or 308).`);
  if (scheme === undefined) throw new HTTPRedirect(target, code, options.headers);
  if (!WEB_SCHEMES.has(scheme)) throw coreError('HICKORY_ERR_REDIRECT', `"${scheme}:" targets are never redirected to (only http: and https: may leave the site).`);
  // What a browser would go to (`http:\\evil.example` is `http://evil.example/`), written plainly.
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw coreError('HICKORY_ERR_REDIRECT', 'the location has a scheme but is not a valid URL.');
  }
  throw new HTTPRedirect(url.href, code, options.headers, options.external ? undefined : url.origin);
}

function pathWithSlash(given: Request | undefined): string {
  if (given !== undefined && !(given instanceof Request)) {
    throw coreError('HICKORY_ERR_REDIRECT', 'the `request` option must be the Request the handler received.');
  }
  const request = given ?? currentExchange()?.request;
  if (!request) {
    if (explicitAppRunning()) {
      throw coreError(
        'HICKORY_ERR_REDIRECT',
        'add_slash without a location needs the request, and with use_context_locals: false there is no current one: pass the request the handler received, redirect(undefined, { add_slash: true, request }).',
      );
    }
    throw coreError('HICKORY_ERR_OUTSIDE_REQUEST', 'redirect({ add_slash })');
  }
  const { path, query_string } = request;
  return (path.endsWith('/') ? path : `${path}/`) + (query_string ? `?${query_string}` : '');
}

// Pecan's add_slash with a location: its path (before any query or fragment) ends with one slash.
function withSlash(location: string): string {
  const end = location.search(/[?#]/);
  const path = end === -1 ? location : location.slice(0, end);
  return `${path.replace(/\/+$/, '')}/${end === -1 ? '' : location.slice(end)}`;
}

// Header values are ASCII: `/café` becomes `/caf%C3%A9`, as a browser would send it.
function percentEncodeNonAscii(target: string): string {
  if (!/[^\u0000-\u007f]/.test(target)) return target;
  try {
    return target.replace(/[^\u0000-\u007f]+/g, (text) => encodeURIComponent(text));
  } catch {
    throw coreError('HICKORY_ERR_REDIRECT', 'the location holds a lone UTF-16 surrogate, which no URL can carry.');
  }
}
