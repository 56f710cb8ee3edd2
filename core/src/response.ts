import type { Readable } from 'node:stream';
import { coreError } from './errors.ts';
import { HeaderMap, type HeaderValue, type Headers } from './header-map.ts';
import { jsonify } from './jsonify.ts';
import { setCookieValue, type CookieOptions } from './cookies.ts';
import { discardBody } from './discard-body.ts';
import { signerFor } from './cookie-signer.ts';

/** A streamed body: a Node stream, an iterable or an async iterable of strings or bytes. */
export type AppIter = Readable | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

/** The fields accepted by `new Response({ ... })`. */
export interface ResponseInit {
  body?: string | Uint8Array | null;
  status?: number;
  headers?: Record<string, HeaderValue | number>;
  content_type?: string;
  app_iter?: AppIter;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The response being built. One is made per request from the configured `response_cls`
 * (a subclass of this class) and is reachable anywhere as `response` during the request.
 * Returning a `Response` from a controller replaces the current one.
 *
 * @example
 * ```ts
 * return new Response('Not yours', 403);
 * return new Response({ body: 'a,b\n', status: 200, headers: { 'Content-Type': 'text/csv' } });
 * ```
 */
export class Response {
  /** The header store behind {@link Response.headers}; the kernel writes from it. */
  readonly headerMap = new HeaderMap();
  private statusCode = 200;
  private bodyValue: string | Uint8Array | null = null;
  private iter: AppIter | undefined;

  constructor(bodyOrInit?: string | Uint8Array | ResponseInit | null, status?: number) {
    if (bodyOrInit === undefined || bodyOrInit === null) {
      if (status !== undefined) this.status = status;
      return;
    }
    if (typeof bodyOrInit === 'string' || bodyOrInit instanceof Uint8Array) {
      this.body = bodyOrInit;
      if (status !== undefined) this.status = status;
      return;
    }
    const init = bodyOrInit;
    if (init.headers) for (const name of Object.keys(init.headers)) this.headerMap.set(name, init.headers[name]);
    if (init.content_type !== undefined) this.content_type = init.content_type;
    if (init.body !== undefined) this.body = init.body;
    if (init.app_iter !== undefined) this.app_iter = init.app_iter;
    const code = init.status ?? status;
    if (code !== undefined) this.status = code;
  }

  /** The HTTP status (an integer from 100 to 599). */
  get status(): number {
    return this.statusCode;
  }
  set status(code: number) {
    if (!Number.isInteger(code) || code < 100 || code > 599) throw coreError('HICKORY_ERR_STATUS', code);
    if (this.refusesChanges()) return;
    this.statusCode = code;
  }

  /**
   * WebOb's name for {@link Response.status} (an alias: reading and setting it is the same).
   *
   * @example
   * ```ts
   * response.status_int = 201; // response.status === 201
   * ```
   */
  get status_int(): number {
    return this.statusCode;
  }
  set status_int(code: number) {
    this.status = code;
  }

  /**
   * WebOb's other name for {@link Response.status} (an alias).
   *
   * @example
   * ```ts
   * if (response.status_code >= 400) log('failed');
   * ```
   */
  get status_code(): number {
    return this.statusCode;
  }
  set status_code(code: number) {
    this.status = code;
  }

  /**
   * WebOb's `response.location`: the `Location` header (`undefined` when unset; setting
   * `undefined` removes it). The value is checked like any header value (no CR or LF).
   *
   * @example
   * ```ts
   * response.status = 201;
   * response.location = `/v1/chassis/${uuid}`;
   * ```
   */
  get location(): string | undefined {
    const value = this.headerMap.get('location');
    return Array.isArray(value) ? value[0] : value;
  }
  set location(value: string | undefined) {
    if (value === undefined) this.headerMap.delete('location');
    else this.headerMap.set('Location', value);
  }

  /** Case-insensitive headers, assignable by index; assigning an object replaces them all. */
  get headers(): Headers {
    return this.headerMap.asRecord();
  }
  set headers(values: Record<string, HeaderValue | number | undefined>) {
    this.headerMap.clear();
    for (const name of Object.keys(values)) this.headerMap.set(name, values[name]);
  }

  /**
   * The body: a string or bytes (`null` when there is none). Setting it replaces `app_iter`,
   * whose stream is then closed (it will never be sent: a file would stay open).
   */
  get body(): string | Uint8Array | null {
    return this.bodyValue;
  }
  set body(value: string | Uint8Array | null) {
    if (this.refusesChanges()) return;
    this.bodyValue = value;
    if (this.iter !== undefined) {
      discardBody(this.iter);
      this.iter = undefined;
    }
  }

  /** The body as text; setting it makes a `text/html` body unless a type was set. */
  get text(): string {
    const body = this.bodyValue;
    if (body === null) return '';
    return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  }
  set text(value: string) {
    this.body = String(value);
    if (!this.headerMap.hasKey('content-type')) this.headerMap.set('Content-Type', HTML);
  }

  /** The body parsed as JSON; setting it serializes the value as an `application/json` body. */
  get json(): unknown {
    return JSON.parse(this.text);
  }
  set json(value: unknown) {
    this.body = jsonify.encode(value);
    if (!this.headerMap.hasKey('content-type')) this.headerMap.set('Content-Type', JSON_TYPE);
  }

  /** A streamed body (stream, iterable or async iterable); setting it clears `body`. */
  get app_iter(): AppIter | undefined {
    return this.iter;
  }
  set app_iter(value: AppIter | undefined) {
    if (this.refusesChanges()) {
      // Never sent: whatever it holds open (a file) is let go of now.
      discardBody(value);
      return;
    }
    this.iter = value;
    this.bodyValue = null;
  }

  /** The media type without parameters; setting it adds `charset=utf-8` to text types. */
  get content_type(): string | undefined {
    const value = this.headerMap.get('content-type');
    if (value === undefined) return undefined;
    const text = Array.isArray(value) ? value[0]! : value;
    const semi = text.indexOf(';');
    return (semi === -1 ? text : text.slice(0, semi)).trim();
  }
  set content_type(value: string | undefined) {
    if (value === undefined) {
      this.headerMap.delete('content-type');
      return;
    }
    this.headerMap.set('Content-Type', withCharset(value));
  }

  // A sealed response (its request was answered without it: see `HeaderMap.seal`) takes no change.
  private refusesChanges(): boolean {
    return this.headerMap.refusesChange();
  }

  /** True when a body or a stream has been set. */
  get hasBody(): boolean {
    return this.bodyValue !== null || this.iter !== undefined;
  }

  /**
   * Adds a `Set-Cookie` header (WebOb's `set_cookie`): the value is percent-encoded; `path` `/`,
   * `HttpOnly` and `SameSite=Lax` unless `options` say otherwise. An error response does not
   * carry it (see `BODY_HEADERS`): give an `abort()` the header itself to set one there.
   * `signed: true` signs the value with the kernel's cookie signer (`sessionPlugin` sets one;
   * without one it throws `HICKORY_ERR_COOKIE_SIGNER`): it is read back from `request.signed_cookies`.
   *
   * @example
   * ```ts
   * response.set_cookie('session', token, { max_age: 3600, secure: true });
   * response.set_cookie('cart', '7', { signed: true }); // request.signed_cookies.cart === '7' next time
   * ```
   */
  set_cookie(name: string, value: string, options?: CookieOptions): void {
    const sent = options?.signed === true ? signerFor(this, name).sign(name, value) : value;
    this.headerMap.append('Set-Cookie', setCookieValue(name, sent, options));
  }

  /**
   * Tells the client to forget a cookie (an empty value that expired); give the `path` and
   * `domain` it was set with.
   *
   * @example
   * ```ts
   * response.delete_cookie('session');
   * ```
   */
  delete_cookie(name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'samesite'> = {}): void {
    this.set_cookie(name, '', { ...options, max_age: 0, expires: new Date(0) });
  }
}

/**
 * Adds `; charset=utf-8` to textual media types that name no charset.
 *
 * @example
 * ```ts
 * withCharset('text/csv'); // 'text/csv; charset=utf-8'
 * withCharset('image/png'); // 'image/png'
 * ```
 */
export function withCharset(type: string): string {
  if (type.includes(';')) return type;
  const textual =
    type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type.endsWith('+xml') || type === 'application/xml' || type === 'application/javascript';
  return textual ? `${type}; charset=utf-8` : type;
}
