import { HTTPError, type Request } from '@hickory/core';

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
