import { HTTPError, type Request } from '@hickory/core';

/**
 * Refuses a body that cannot give a handler its variables though it claims to: a JSON body that
 * is not an object (`"a string"`, `[1,2]`, `null`: the kernel reads such a body as no variables,
 * which would let a mapped parameter silently go without its value). Called only when a handler
 * maps variables.
 *
 * @example
 * ```ts
 * refuseNonObjectJson(request); // throws a 400 for POST '[1,2]' with Content-Type: application/json
 * ```
 */
export function refuseNonObjectJson(request: Request): void {
  const type = request.media_type;
  if (type !== 'application/json' && !type.endsWith('+json')) return;
  const value = request.json;
  if (value === undefined || (value !== null && typeof value === 'object' && !Array.isArray(value))) return;
  throw new HTTPError(400, `The JSON body must be an object of variables, not ${jsonKind(value)}.`);
}

/**
 * Refuses a body whose `Content-Type` is no media type at all (`json`, `;;;`, `text/plain/x`): a
 * broken request (400), where a well-formed type without variables (`text/plain`) only leaves the
 * query's variables.
 *
 * @example
 * ```ts
 * refuseMalformedType(request); // throws a 400 for Content-Type: json
 * ```
 */
export function refuseMalformedType(request: Request): void {
  const header = request.headers['content-type'];
  if (!header || MEDIA_TYPE.test(request.media_type)) return;
  throw new HTTPError(400, 'The Content-Type header is not a media type: send type/subtype, such as application/json or application/x-www-form-urlencoded.');
}

// `type/subtype`, each an RFC 9110 token (media_type is already lower-cased and trimmed).
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

// How a 400 names a JSON value that is no object.
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
