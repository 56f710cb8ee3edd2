import { STATUS_CODES } from 'node:http';
import { coreError } from './errors.ts';
import { assertHeaderValue } from './header-map.ts';

/** Extra headers for an error response (for example `Allow` on a 405). */
export type ErrorHeaders = Record<string, string | string[]>;

/**
 * An HTTP error: thrown by {@link abort} (or by the framework itself) and turned into an
 * error response. `status` is 400–599; `detail` is shown to the client for 4xx only.
 *
 * @example
 * ```ts
 * throw new HTTPError(404, 'No book with id 7');
 * ```
 */
export class HTTPError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly headers: ErrorHeaders | undefined;

  constructor(status: number, detail?: string, headers?: ErrorHeaders, options?: ErrorOptions) {
    if (!Number.isInteger(status) || status < 300 || status > 599) {
      throw coreError('HICKORY_ERR_ABORT_STATUS', status);
    }
    const title = STATUS_CODES[status] ?? `Status ${status}`;
    super(detail ? `${status} ${title}: ${detail}` : `${status} ${title}`, options);
    this.name = 'HTTPError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    if (headers) for (const name of Object.keys(headers)) assertHeaderValue(name, headers[name]!);
    this.headers = headers;
  }

  /**
   * WebOb's name for {@link HTTPError.status} (`exc.code`), so code written for WebOb's
   * exceptions (`getattr(e, 'code', 500)`) reads the status of any `abort()`.
   *
   * @example
   * ```ts
   * catch (e) { response.status = (e as { code?: number }).code ?? 500; }
   * ```
   */
  get code(): number {
    return this.status;
  }

  /** Serializable summary; the same fields as the default JSON error body. */
  toJSON(): { code: number; title: string; description: string } {
    return { code: this.status, title: this.title, description: describe(this) };
  }
}

/**
 * The text shown to a client for an error: the detail of a 4xx, a generic sentence otherwise
 * (5xx bodies never reveal internals).
 *
 * @example
 * ```ts
 * describe(new HTTPError(500, 'db password wrong')); // 'The server could not complete the request.'
 * ```
 */
export function describe(error: HTTPError): string {
  if (error.status >= 500) return GENERIC_5XX;
  return error.detail ?? DEFAULT_DESCRIPTIONS[error.status] ?? `${error.title}.`;
}

const GENERIC_5XX = 'The server could not complete the request.';

const DEFAULT_DESCRIPTIONS: Record<number, string> = {
  400: 'The request could not be understood.',
  401: 'This resource needs authentication.',
  403: 'Access to this resource is forbidden.',
  404: 'The resource could not be found.',
  405: 'The method is not allowed for this resource.',
  406: 'No representation of this resource matches the Accept header.',
  408: 'The request took too long.',
  413: 'The request body is too large.',
  414: 'The request URI is too long.',
  415: 'The request body has a media type this resource does not accept.',
};

/**
 * Stops the current request with an HTTP error response (any status from 400 to 599).
 * The error is stored in `request.environ['hickory.original_exception']`.
 *
 * @example
 * ```ts
 * @expose('json') get_one(id: string) { return books.get(id) ?? abort(404, `No book ${id}`); }
 * ```
 */
export function abort(status: number, detail?: string, headers?: ErrorHeaders): never {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw coreError('HICKORY_ERR_ABORT_STATUS', status);
  }
  throw new HTTPError(status, detail, headers);
}
