/**
 * What a routing plugin found for a request, for a request of type `Req` answered on a response of
 * type `Res`. Everyone uses `Lookup` (`LookupOf<Request, Response>`, from the request's module): the
 * types are parameters here so that this file never imports the request, whose `lookup` field
 * names this type (one file importing the other both ways would be an import circle).
 *
 * @example
 * ```ts
 * const lookup: LookupOf<Request, Response> = { target: 'hello', handle: () => 'Hello' };
 * ```
 */
export interface LookupOf<Req, Res> {
  /** What was found (for `afterLookup` taps and logs): a controller method for dispatch. */
  readonly target: unknown;
  /**
   * Runs the handler: argument mapping, the call, and rendering. Its value is applied to the
   * response like a `beforeRoute` answer: a `Response` replaces it, a string or bytes become the
   * body, another object is sent as JSON, `undefined` leaves it as it is.
   */
  handle(request: Req, response: Res): unknown;
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
