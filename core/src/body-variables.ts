import type { IncomingMessage } from 'node:http';
import { coreError } from './errors.ts';
import { HTTPError } from './http-error.ts';
import { checkJsonCharset, isJsonMediaType, parseJsonBody } from './json-body.ts';
import { hasBody } from './read-body.ts';
import { NoVariablesInBody, refuseEmptyJson } from './request-body-rules.ts';
import { parseUrlEncodedBody, type Variables } from './variables.ts';

const FORM = 'application/x-www-form-urlencoded';

/** What {@link bodyVariables} reads of a request (a `Request` is one). */
export interface BodyVariablesSource {
  readonly raw: IncomingMessage;
  readonly method: string;
  readonly media_type: string;
  /** Read, not parsed again: a JSON body's variables are the object `request.json` gave. */
  readonly json: unknown;
}

/**
 * The body variables (`request.POST`) of a body, by its media type: an urlencoded form, or a JSON
 * object (another JSON value holds no variables: empty). No body gives no variables (an empty JSON
 * body of a method that needs one is a 400: `refuseEmptyJson`); multipart without its plugin, or a
 * media type that holds no variables, is a 415 naming what to send. `body` is `undefined` while a
 * body the request frames was not read: that is a mistake of the code asking
 * (`HICKORY_ERR_BODY_NOT_LOADED`), not of the client.
 *
 * @example
 * ```ts
 * const post = bodyVariables(request, request.body, 1000);
 * ```
 */
export function bodyVariables(request: BodyVariablesSource, body: Buffer | undefined, paramLimit: number): Variables {
  if (body === undefined && hasBody(request.raw)) throw coreError('HICKORY_ERR_BODY_NOT_LOADED', 'POST');
  const type = request.media_type;
  if (body === undefined || body.length === 0) {
    refuseEmptyJson(type, request.method, request.raw);
    return Object.create(null);
  }
  if (type === FORM) return parseUrlEncodedBody(body, paramLimit);
  if (isJsonMediaType(type)) {
    const value = request.json;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Variables;
    return Object.create(null);
  }
  if (type === 'multipart/form-data') {
    throw new HTTPError(415, 'multipart/form-data bodies need the multipart plugin: kernel.use(multipartPlugin) from @hickory/multipart.');
  }
  throw new NoVariablesInBody(
    `Cannot read variables from a ${type || 'body without Content-Type'}: send application/x-www-form-urlencoded, application/json or multipart/form-data.`,
  );
}

/**
 * A body parsed as JSON (`request.json`): `undefined` when it is empty, else its value with
 * null-prototype objects. A charset other than UTF-8 → 415, malformed JSON → 400.
 *
 * @example
 * ```ts
 * jsonOfBody(Buffer.from('{"a":1}'), 'application/json'); // { a: 1 }
 * ```
 */
export function jsonOfBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  checkJsonCharset(contentType);
  return parseJsonBody(body.toString('utf8'));
}
