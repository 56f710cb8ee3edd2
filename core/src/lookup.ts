import type { Request } from './request.ts';
import type { Response } from './response.ts';

/**
 * What a routing plugin found for a request (the result of the `route` hook).
 *
 * @example
 * ```ts
 * const lookup: Lookup = { target: 'hello', handle: () => 'Hello' };
 * ```
 */
export interface Lookup {
  /** What was found (for `afterLookup` taps and logs): a controller method for dispatch. */
  readonly target: unknown;
  /**
   * Runs the handler: argument mapping, the call, and rendering. Its value is applied to the
   * response like a `beforeRoute` answer: a `Response` replaces it, a string or bytes become the
   * body, another object is sent as JSON, `undefined` leaves it as it is.
   */
  handle(request: Request, response: Response): unknown;
  /**
   * `false` keeps the kernel from reading the body first (the handler streams `request.raw`).
   * `true` reads it even for GET, HEAD, OPTIONS and TRACE, whose bodies are otherwise ignored
   * (see `BODYLESS_METHODS`, `request-body-rules.ts`); left out, the method decides (DELETE, like POST, is read when the
   * request frames a body).
   */
  readonly loadBody?: boolean;
  /**
   * The media type the handler answers in (dispatch: the rendering negotiation chose). An error
   * of this request is written in it when the client states no preference (`Accept: *\/*`, or
   * none): a JSON API's `abort(409)` is JSON to curl and fetch.
   */
  readonly mediaType?: string;
}
