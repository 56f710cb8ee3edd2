import type { IncomingMessage } from 'node:http';
import { HTTPError } from './http-error.ts';
import { isJsonMediaType } from './json-body.ts';
import { endedWithHeaders } from './read-body.ts';

/**
 * The methods whose requests define no body (RFC 9110): theirs is ignored unless the handler
 * asks for it. DELETE is not one: its body has no generally defined meaning either, but it is not
 * cached by URL and APIs do send one (bulk deletes), so it is read when the request frames one,
 * as Fastify and Express read it.
 *
 * @example
 * ```ts
 * if (BODYLESS_METHODS.has(request.method)) return request.GET; // no body variables to expect
 * ```
 */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * The 415 for a body whose media type holds no variables (`text/plain`, an image…): a handler
 * that maps no body variables may take the request all the same, unlike a body that is broken.
 *
 * @example
 * ```ts
 * if (error instanceof NoVariablesInBody) return request.GET;
 * ```
 */
export class NoVariablesInBody extends HTTPError {
  constructor(detail: string) {
    super(415, detail);
    this.name = 'NoVariablesInBody';
  }
}

/**
 * Throws the 400 for a request whose variables are wanted and whose body says it is JSON but is
 * empty: a client mistake, as fastify answers. GET, HEAD, OPTIONS and TRACE define no body, so
 * their Content-Type is not held against them; nor is a DELETE's that frames none (no
 * Content-Length, no Transfer-Encoding): HTTP clients configured for a JSON API send the header on
 * a bodiless DELETE too, and fastify reads a DELETE's body only when it is framed.
 *
 * @example
 * ```ts
 * if (body.length === 0) refuseEmptyJson(request.media_type, request.method, request.raw);
 * ```
 */
export function refuseEmptyJson(mediaType: string, method: string, raw: IncomingMessage): void {
  if (!isJsonMediaType(mediaType) || BODYLESS_METHODS.has(method)) return;
  if (method === 'DELETE' && !framesBody(raw)) return;
  throw new HTTPError(400, 'The body is empty, but its Content-Type says it is JSON: send a JSON object, or no Content-Type.');
}

// `Content-Length: 0` frames an empty body; no header at all frames none (over HTTP/2, a stream
// that its headers ended).
function framesBody(raw: IncomingMessage): boolean {
  return raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined || (raw.httpVersionMajor === 2 && !endedWithHeaders(raw));
}
