import type { IncomingMessage } from 'node:http';
import { clientConnection, hostUrlOf, type ClientConnection } from './client-connection.ts';
import { verifiedCookies } from './cookie-signer.ts';
import { parseCookies } from './cookies.ts';
import { coreError } from './errors.ts';
import { requestHeaders, rewriteRequestHeader, type Headers } from './header-map.ts';
import { requestAccess } from './request-access.ts';

/**
 * The request's headers and what is read from them (`Request` extends it; not exported from the
 * package): the header view, the body's media type, the cookies (plain and signed), and the
 * client's connection — scheme, host and address, as the socket or trusted proxies tell.
 * `raw` is the request's own, declared here abstract so that this file never imports the request;
 * the settings it reads (`trust_proxy`, the cookie signer) come through `requestAccess`.
 *
 * @example
 * ```ts
 * class Request extends RequestHeaders { … } // request.headers['accept'], request.host, request.cookies
 * ```
 */
export abstract class RequestHeaders {
  abstract readonly raw: IncomingMessage;
  // Read when first asked for, and again after `set_header`. Declared, not defined, and set by the
  // constructor: a base class's field definitions would cost every request a call of their own.
  private declare headerView: Headers | undefined;
  private declare cookieJar: Record<string, string> | undefined;
  private declare signedJar: Record<string, string> | undefined;
  private declare connectionValue: ClientConnection | undefined;

  constructor() {
    this.headerView = undefined;
    this.cookieJar = undefined;
    this.signedJar = undefined;
    this.connectionValue = undefined;
  }

  /** Incoming headers: case-insensitive, read-only, null prototype. */
  get headers(): Headers {
    return (this.headerView ??= requestHeaders(this.raw.headers));
  }

  // The header rewrite itself (`Request.set_header`, which documents it, also keeps its environ in step).
  set_header(name: string, value: string | undefined): void {
    rewriteRequestHeader(this.raw.headers, name, value);
    // Everything read from the headers so far is read again.
    this.headerView = undefined;
    this.cookieJar = undefined;
    this.connectionValue = undefined;
  }

  /** The media type of the body, lower-cased, without parameters (`''` when absent). */
  get media_type(): string {
    const value = this.raw.headers['content-type'];
    if (!value) return '';
    const semi = value.indexOf(';');
    return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  }

  /** The media type of the body, as {@link Request.media_type} (WebOb's name, as Pecan apps read it). */
  get content_type(): string {
    return this.media_type;
  }

  /**
   * The request's cookies, decoded (WebOb's `request.cookies`): an object without a prototype.
   *
   * @example
   * ```ts
   * const theme = request.cookies['theme'] ?? 'light';
   * ```
   */
  get cookies(): Record<string, string> {
    return (this.cookieJar ??= parseCookies(this.raw.headers.cookie));
  }

  /**
   * The cookies set with `response.set_cookie(name, value, { signed: true })` whose signature
   * verifies, unsigned: a cookie the client changed (or never signed) is absent, never an error.
   * Needs a cookie signer (`sessionPlugin`), else it throws `HICKORY_ERR_COOKIE_SIGNER`.
   *
   * @example
   * ```ts
   * const cart = request.signed_cookies['cart']; // undefined when missing or tampered with
   * ```
   */
  get signed_cookies(): Record<string, string> {
    if (this.signedJar !== undefined) return this.signedJar;
    const signer = requestAccess.signer(this);
    if (signer === undefined) throw coreError('HICKORY_ERR_COOKIE_SIGNER', 'request.signed_cookies');
    return (this.signedJar = verifiedCookies(this.cookies, signer));
  }

  /**
   * The scheme the client used, `http` or `https` (WebOb's `request.scheme`): the socket's, or
   * with `trust_proxy` the one trusted proxies report (`X-Forwarded-Proto`, `Forwarded: proto=`).
   *
   * @example
   * ```ts
   * if (request.scheme === 'https') response.headers['Strict-Transport-Security'] = 'max-age=31536000';
   * ```
   */
  get scheme(): 'http' | 'https' {
    return this.connection.scheme;
  }

  /**
   * The `host[:port]` the client asked for (WebOb's `request.host`): the Host header (the address
   * the socket reached when there is none), or with `trust_proxy` a valid one trusted proxies
   * report (`X-Forwarded-Host`, `Forwarded: host=`).
   *
   * @example
   * ```ts
   * const tenant = request.host.split('.')[0];
   * ```
   */
  get host(): string {
    return this.connection.host;
  }

  /**
   * The client's IP address (WebOb's `request.remote_addr`): the socket's peer, or with
   * `trust_proxy` the first untrusted address walking back through `X-Forwarded-For` (or
   * `Forwarded: for=`) from the socket.
   *
   * @example
   * ```ts
   * logger.info(`login from ${request.remote_addr}`);
   * ```
   */
  get remote_addr(): string {
    return this.connection.remoteAddr;
  }

  /**
   * `scheme://host` of the request, the port left out when it is the scheme's default (WebOb's
   * `request.host_url`): the base for an absolute URL to this site.
   *
   * @example
   * ```ts
   * const link = `${request.host_url}/books/7`; // https://books.example.com/books/7 behind a trusted proxy
   * ```
   */
  get host_url(): string {
    return hostUrlOf(this.connection);
  }

  // Computed once, on first read: a request that never asks parses no forwarding header. The
  // request's environ is built from it too.
  protected get connection(): ClientConnection {
    return (this.connectionValue ??= clientConnection(this.raw, requestAccess.trustProxy(this)));
  }
}
