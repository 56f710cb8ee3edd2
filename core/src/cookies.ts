import { parse, serialize } from 'cookie';
import { coreError } from './errors.ts';

/** Options of `response.set_cookie` (WebOb's names). */
export interface CookieOptions {
  /** Seconds until the cookie expires (`Max-Age`). */
  max_age?: number;
  /** An expiry date (`Expires`), for old clients; `max_age` wins where both are read. */
  expires?: Date;
  /** Default `/`. */
  path?: string;
  /** The domain the cookie is sent to (default: this host only). */
  domain?: string;
  /** Only over HTTPS. */
  secure?: boolean;
  /** Hidden from page scripts. Default `true` (WebOb's default is false: scripts rarely need a server's cookie). */
  httponly?: boolean;
  /** `'lax'` (default), `'strict'` or `'none'` (which needs `secure`). */
  samesite?: 'lax' | 'strict' | 'none';
  /**
   * Sign the value (`response.set_cookie` only): it comes back in `request.signed_cookies`, and a
   * value changed by the client is absent there. Needs a cookie signer (`sessionPlugin`).
   */
  signed?: boolean;
}

/**
 * The cookies of a `Cookie` header, decoded, in an object without a prototype (a cookie named
 * `__proto__` is an ordinary key). A value that is not valid percent-encoding is kept as sent.
 *
 * @example
 * ```ts
 * parseCookies('theme=dark; lang=fr'); // { theme: 'dark', lang: 'fr' }
 * ```
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (header === undefined || header === '') return cookies;
  const parsed = parse(header, { decode: decodeValue });
  for (const name of Object.keys(parsed)) {
    const value = parsed[name];
    if (value !== undefined) cookies[name] = value;
  }
  return cookies;
}

function decodeValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * One `Set-Cookie` value: `path` `/`, `HttpOnly` and `SameSite=Lax` unless told otherwise. An
 * invalid name, domain or path is the application's mistake (HICKORY_ERR_COOKIE).
 *
 * @example
 * ```ts
 * setCookieValue('session', 'abc', { max_age: 3600, secure: true }); // 'session=abc; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax'
 * ```
 */
export function setCookieValue(name: string, value: string, options: CookieOptions = {}): string {
  try {
    return serialize(name, value, {
      ...(options.max_age === undefined ? {} : { maxAge: options.max_age }),
      ...(options.expires === undefined ? {} : { expires: options.expires }),
      ...(options.domain === undefined ? {} : { domain: options.domain }),
      path: options.path ?? '/',
      httpOnly: options.httponly ?? true,
      secure: options.secure ?? false,
      sameSite: options.samesite ?? 'lax',
    });
  } catch (error) {
    throw coreError('HICKORY_ERR_COOKIE', JSON.stringify(name), (error as Error).message);
  }
}
