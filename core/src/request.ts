import type { IncomingMessage, ServerResponse } from 'node:http';
import { callbacksAfter, type AfterResponse } from './after-response.ts';
import { Ending, type BeforeEnd } from './before-end.ts';
import { bodyVariables, jsonOfBody } from './body-variables.ts';
import { buildEnviron, rewriteEnvironHeader, type Environ } from './environ.ts';
import { coreError } from './errors.ts';
import { SILENT_LOG, type PinoLike } from './pino-like.ts';
import { hasBody, readBody } from './read-body.ts';
import type { LookupOf } from './lookup.ts';
import { BODYLESS_METHODS } from './request-body-rules.ts';
import { requestAccess } from './request-access.ts';
import { RequestHeaders } from './request-headers.ts';
import { requestIdOf } from './request-id.ts';
import type { RequestSettingsOf } from './request-settings.ts';
import { pathOfAbsoluteForm } from './request-target.ts';
import type { Response } from './response.ts';
import { mergeVariables, parseUrlEncoded, type Variables } from './variables.ts';

/**
 * What a routing plugin found for a request (the result of the `route` hook); its members are
 * documented on {@link LookupOf}, which keeps them out of this file's import circle.
 *
 * @example
 * ```ts
 * const lookup: Lookup = { target: 'hello', handle: () => 'Hello' };
 * ```
 */
export interface Lookup extends LookupOf<Request, Response> {}

/**
 * The settings a {@link Request} needs from its kernel (limits and body parsers), documented on
 * {@link RequestSettingsOf}.
 *
 * @example
 * ```ts
 * new Request(req, { bodyLimit: 1_048_576, paramLimit: 1000, bodyParsers: kernel.hooks.parseBody });
 * ```
 */
export interface RequestSettings extends RequestSettingsOf<Request> {}

export type { BodyParseResult } from './request-settings.ts';

const EMPTY = Buffer.alloc(0);
const LOADED: Promise<void> = Promise.resolve();

/**
 * The request being handled. One is built per request from the configured `request_cls`
 * (a subclass of this class) and is reachable anywhere as `request` during the request.
 *
 * Members follow Pecan/WebOb: `path`, `method`, `url`, `headers`, `GET`, `POST`, `params`, `body`,
 * `json`, `context`, `environ`. Parsed variables are null-prototype objects.
 *
 * @example
 * ```ts
 * class TimedRequest extends Request {
 *   readonly startedAt = performance.now();
 * }
 * createKernel({ request_cls: TimedRequest });
 * ```
 */
export class Request extends RequestHeaders {
  /** Node's incoming message (the raw stream; read it only if the body was not loaded). */
  readonly raw: IncomingMessage;
  /** Upper-case HTTP method. */
  method: string;
  /**
   * The request target, path and query (`/books/?page=2`). An absolute-form target
   * (`GET http://host/books/ HTTP/1.1`) is reduced to its path and query.
   */
  url: string;
  /** The path, still percent-encoded, without the query string. Routing plugins read it. */
  path: string;
  // Made when first read: most requests never use it.
  private contextValue: Record<string, unknown> | undefined;
  /**
   * The lookup whose handler runs now (set by the kernel once routed, before the body is read; an
   * internal redirect or an error document replaces it). Plugins read what was found here
   * (`request.lookup?.target`) instead of keeping a map per request.
   */
  lookup: Lookup | undefined = undefined;

  private readonly settings: RequestSettings;
  private getVars: Variables | undefined;
  private postVars: Variables | undefined;
  private allVars: Variables | undefined;
  private rawBody: Buffer | undefined;
  private jsonValue: unknown;
  private jsonParsed = false;
  private loading: Promise<void> | undefined;
  private environValue: Environ | undefined;
  private queryValue: string;
  private idValue: string | undefined;
  private logValue: PinoLike | undefined;

  constructor(raw: IncomingMessage, settings: RequestSettings) {
    super();
    this.raw = raw;
    this.settings = settings;
    this.method = raw.method ?? 'GET';
    const url = raw.url ?? '/';
    const q = url.indexOf('?');
    const target = q === -1 ? url : url.slice(0, q);
    this.queryValue = q === -1 ? '' : url.slice(q + 1);
    if (target.charCodeAt(0) === 47 /* / */) {
      this.path = target;
      this.url = url;
    } else {
      this.path = pathOfAbsoluteForm(target);
      this.url = q === -1 ? this.path : `${this.path}?${this.queryValue}`;
    }
  }

  /** Per-request storage for application data: a fresh object for every request. */
  get context(): Record<string, unknown> {
    return (this.contextValue ??= {});
  }
  set context(value: Record<string, unknown>) {
    this.contextValue = value;
  }

  /** The query string without the `?` (empty when there is none); setting it re-parses `GET`. */
  get query_string(): string {
    return this.queryValue;
  }
  set query_string(value: string) {
    this.queryValue = value;
    this.getVars = undefined;
    this.allVars = undefined;
    if (this.environValue) this.environValue['QUERY_STRING'] = value;
  }

  /**
   * Rewrites an incoming header (`undefined` removes it), as WebOb code rewrites `environ`: for a
   * `beforeRoute` tap or an `on_route` hook, so that routing, negotiation, the body's parsing and
   * the handler see the new value (`headers`, `media_type`, `cookies`, `environ`, the client's host
   * and scheme are read again). The name must be a token, the value printable ASCII (CR or LF:
   * `HICKORY_ERR_HEADER_VALUE`); `Content-Length` and `Transfer-Encoding` cannot be rewritten.
   *
   * @example
   * ```ts
   * kernel.hooks.beforeRoute.tap('api-version', (request) => {
   *   if (request.path.startsWith('/api/')) request.set_header('Accept', 'application/json');
   * });
   * ```
   */
  override set_header(name: string, value: string | undefined): void {
    super.set_header(name, value);
    if (this.environValue) rewriteEnvironHeader(this.environValue, name.toLowerCase(), value);
  }

  /**
   * The request id: the incoming `X-Request-Id` (see `request_id_header`) when it is 1 to 128
   * characters of `[A-Za-z0-9._:-]`, else a new one. Made when first read; with request logging
   * on it is in every log line of the request and sent back as `X-Request-Id`.
   *
   * @example
   * ```ts
   * audit.record({ requestId: request.id, action: 'delete' });
   * ```
   */
  get id(): string {
    return (this.idValue ??= requestIdOf(this.raw, this.settings.requestIdHeader ?? 'x-request-id'));
  }

  /**
   * Runs `callback` once the response to this request has been sent (`completed`: true) or the
   * client has gone (false): a plugin's cleanup for the requests that need one (temporary files,
   * locks), where an `onResponse` tap would run on every request. A callback that throws is logged.
   *
   * @example
   * ```ts
   * request.afterResponse(() => temps.removeAll());
   * ```
   */
  afterResponse(callback: AfterResponse): void {
    // A request made outside a kernel has no response to wait for: nothing to clean up after.
    (this.#afterCallbacks ??= callbacksAfter(this.#serverResponse, () => this.log))?.push(callback);
  }
  #afterCallbacks: AfterResponse[] | undefined;

  /**
   * Runs `callback` once the response is final, before any byte of it is written: what the
   * request holds (a transaction, a pooled connection, a lock) is given back there, so that the
   * response and what the request did agree. A streamed `app_iter` is read after the callbacks
   * ran: it must not need what they give back. `outcome.ok` is true for a success (below 400) that
   * is being delivered, false for an error or a client that left. Callbacks run once each, the
   * last added first, within `handler_timeout` together (past it the answer is a 503; they still
   * finish, logged); one that throws is logged and makes the response a 500, and the callbacks
   * after it are told `ok: false`. Called once the response was decided (a request past
   * `handler_timeout` whose handler still runs, or whose client left), it throws: nothing may be
   * taken for it then.
   *
   * @example
   * ```ts
   * const client = await pool.connect();
   * request.beforeEnd(async ({ ok }) => { await client.query(ok ? 'COMMIT' : 'ROLLBACK'); client.release(); });
   * ```
   */
  beforeEnd(callback: BeforeEnd): void {
    if (this.#cutOff || this.#ending === null || this.#ending?.started === true) throw coreError('HICKORY_ERR_REQUEST_ENDED', `${this.method} ${this.path}`);
    (this.#ending ??= new Ending(() => this.log)).add(callback);
  }
  // `null` once the response was decided with no callback registered.
  #ending: Ending | undefined | null;
  // True once the request was answered without its handler (past `handler_timeout`, or its client
  // left): what the handler still does reaches neither the client nor the data.
  #cutOff = false;
  // The `ServerResponse` this request is answered on (set through `answeredOn`): an ES private
  // field, which costs the request no more than a plain one, and is no name of its interface.
  #serverResponse: ServerResponse | undefined;
  static {
    requestAccess.answerOn = (request: Request, res: ServerResponse) => {
      request.#serverResponse = res;
    };
    requestAccess.signer = (request: Request) => request.settings.cookieSigner;
    requestAccess.trustProxy = (request: Request) => request.settings.trustProxy;
    requestAccess.closeEnding = (request: Request) => {
      if (request.#ending === undefined) request.#ending = null;
      return request.#ending ?? undefined;
    };
    requestAccess.cutOff = (request: Request) => {
      request.#cutOff = true;
    };
    requestAccess.ended = (request: Request) => request.#cutOff || request.#ending === null || request.#ending?.started === true;
  }


  /**
   * A pino-compatible logger whose lines carry this request's id (`reqId`): a child of the
   * kernel's logger, built when first read, so a request that never logs pays nothing for it.
   *
   * @example
   * ```ts
   * request.log.info({ bookId: book.id }, 'book added');
   * ```
   */
  get log(): PinoLike {
    return (this.logValue ??= this.settings.requestLog?.(this) ?? SILENT_LOG);
  }

  /** Query string variables. Malformed escapes, bytes that are not UTF-8, more than the parameter limit → 400. */
  get GET(): Variables {
    return (this.getVars ??= parseUrlEncoded(this.query_string, this.settings.paramLimit, 'query'));
  }

  /**
   * Body variables: from an urlencoded form, a JSON object, or (with `multipartPlugin`) a
   * multipart form, where an uploaded file is an object with `filename`, `type`, `size`, `file`.
   */
  get POST(): Variables {
    return (this.postVars ??= bodyVariables(this, this.rawBody, this.settings.paramLimit));
  }

  /** Query and body variables together; a key in both gives an array of both values. */
  get params(): Variables {
    return (this.allVars ??= mergeVariables(this.GET, this.POST));
  }

  /**
   * The app's `use_context_locals`: `false` when handlers receive `(request, response, ...)` and
   * the importable `request`/`response` are not available (routing plugins read it to map arguments).
   *
   * @example
   * ```ts
   * const args = request.use_context_locals ? mapped : [request, response, ...mapped];
   * ```
   */
  get use_context_locals(): boolean {
    return this.settings.useContextLocals !== false;
  }

  /** The raw body bytes (empty when there is no body or a streaming parser consumed it). */
  get body(): Buffer {
    if (this.rawBody !== undefined) return this.rawBody;
    if (!hasBody(this.raw)) return EMPTY;
    throw coreError('HICKORY_ERR_BODY_NOT_LOADED', 'body');
  }

  /** The body parsed as JSON (objects with a null prototype); malformed JSON → 400. */
  get json(): unknown {
    if (!this.jsonParsed) {
      this.jsonValue = jsonOfBody(this.body, this.raw.headers['content-type']);
      this.jsonParsed = true;
    }
    return this.jsonValue;
  }

  /** WSGI-style environ (`REQUEST_METHOD`, `PATH_INFO`, `QUERY_STRING`, `HTTP_*`, …), writable. */
  get environ(): Environ {
    return (this.environValue ??= buildEnviron(this, this.connection));
  }

  /**
   * For a method whose semantics define no body (GET, HEAD, OPTIONS, TRACE: {@link BODYLESS_METHODS}),
   * marks the body as empty and unread unless `wanted` is `true` (the handler asked for it), and
   * says so. Such a body never fills `POST` or handler arguments: a "fat GET" is input that caches
   * keyed on the URL never see. Node discards the unread bytes once the response is sent. A later
   * {@link load} reads nothing: the handler's opt-in is the only way to that body.
   *
   * @example
   * ```ts
   * if (!request.loaded && !request.bodyIgnoredFor(lookup.loadBody)) await request.load();
   * ```
   */
  bodyIgnoredFor(wanted: boolean | undefined): boolean {
    if (wanted === true || !BODYLESS_METHODS.has(this.method)) return false;
    this.rawBody = EMPTY;
    this.loading = LOADED;
    // Only a body that is there needs hiding; without one, POST is empty the usual way.
    if (hasBody(this.raw)) this.setPOST(Object.create(null));
    return true;
  }

  /** True once the body has been read (or there was none). */
  get loaded(): boolean {
    return this.rawBody !== undefined;
  }

  /**
   * Reads the body: a streaming parser tapped on `parseBody` for this media type consumes it,
   * otherwise up to the body limit is buffered and parsed on first use. Safe to call twice; a
   * no-op once {@link bodyIgnoredFor} has ignored the body.
   */
  load(): Promise<void> {
    if (this.loading === undefined) {
      // No body: loaded at once, so the kernel need not wait a tick for it.
      if (hasBody(this.raw)) this.loading = this.readAndParse();
      else {
        this.rawBody = EMPTY;
        this.loading = LOADED;
      }
    }
    return this.loading;
  }

  /** Replaces the body variables (used by body parser plugins). */
  setPOST(variables: Variables): void {
    this.postVars = variables;
    this.allVars = undefined;
  }

  /**
   * Points the request at another path (internal redirects, error documents, rewrites in
   * `beforeRoute`). A `?query` in `url` replaces the query string; without one it is kept.
   * `url`, `path`, `query_string` and the environ's `PATH_INFO`/`QUERY_STRING` stay in step.
   *
   * @example
   * ```ts
   * request.rewrite('/books/'); // /catalog?page=2 → /books/?page=2
   * ```
   */
  rewrite(url: string): void {
    const q = url.indexOf('?');
    this.path = q === -1 ? url : url.slice(0, q);
    if (q !== -1) this.query_string = url.slice(q + 1);
    this.url = this.queryValue ? `${this.path}?${this.queryValue}` : this.path;
    if (this.environValue) this.environValue['PATH_INFO'] = this.path;
  }

  private async readAndParse(): Promise<void> {
    if (!hasBody(this.raw)) {
      this.rawBody = EMPTY;
      return;
    }
    const parser = this.settings.bodyParsers.get(this.media_type);
    if (parser && parser.isUsed()) {
      const variables = await parser.promise(this);
      this.rawBody = EMPTY;
      if (variables) this.setPOST(variables);
      return;
    }
    this.rawBody = await readBody(this.raw, this.settings.bodyLimit);
  }
}

