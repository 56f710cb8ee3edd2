import { coreError } from './errors.ts';
import { HTTPError, type ErrorHeaders } from './http-error.ts';
import { currentExchange } from './current.ts';

/** Options of {@link redirect}. */
export interface RedirectOptions {
  /** Re-dispatch to `location` inside the same request instead of answering the client. */
  internal?: boolean;
  /** The redirect status: 301, 302 (default), 303, 307 or 308. */
  code?: number;
  /** Extra headers for the redirect response. */
  headers?: ErrorHeaders;
  /** Redirect to the current path with a trailing slash (query kept); `location` is then ignored. */
  add_slash?: boolean;
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
  constructor(location: string, code: number, headers?: ErrorHeaders) {
    super(code, undefined, { ...headers, Location: location });
    this.name = 'HTTPRedirect';
    this.location = location;
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

/**
 * Redirects the client (HTTP 302 unless `code` says otherwise), or with `internal: true`
 * re-dispatches inside the same request, keeping `request.context`; internal loops are detected.
 * A location may not hold control characters (CR, LF, NUL, TAB, …: browsers drop some of them,
 * so `/\t/host` would leave the site), surrounding spaces are trimmed, and a leading `//` or `/\`
 * (another host) is folded to `/`.
 *
 * @example
 * ```ts
 * redirect('/books/');                      // 302 Location: /books/
 * redirect('/login', { code: 303 });
 * redirect('/other', { internal: true });   // the client never sees it
 * redirect(undefined, { add_slash: true }); // /catalog?x=1 → /catalog/?x=1
 * ```
 */
export function redirect(location?: string, options: RedirectOptions = {}): never {
  let target = location;
  if (options.add_slash) {
    const exchange = currentExchange();
    if (!exchange) throw coreError('HICKORY_ERR_OUTSIDE_REQUEST', 'redirect({ add_slash })');
    const { path, query_string } = exchange.request;
    target = (path.endsWith('/') ? path : `${path}/`) + (query_string ? `?${query_string}` : '');
  }
  if (typeof target !== 'string' || target.length === 0) throw coreError('HICKORY_ERR_REDIRECT', 'the location must be a non-empty string.');
  if (/[\u0000-\u001f\u007f]/.test(target)) throw coreError('HICKORY_ERR_REDIRECT', 'the location contains a control character (CR, LF, NUL, TAB, …).');
  // Browsers strip leading and trailing spaces before resolving: ` //host` is `//host`.
  target = target.replace(/^ +| +$/g, '');
  target = target.replace(/^[/\\]{2,}/, '/');
  if (options.internal) {
    if (!target.startsWith('/')) throw coreError('HICKORY_ERR_REDIRECT', `an internal redirect needs a path starting with "/", got "${target}".`);
    throw new InternalRedirect(target);
  }
  const code = options.code ?? 302;
  if (!REDIRECT_CODES.has(code)) throw coreError('HICKORY_ERR_REDIRECT', `${code} is not a redirect status (use 301, 302, 303, 307 or 308).`);
  throw new HTTPRedirect(target, code, options.headers);
}
