import { HTTPError } from '@hickory/core';

// RFC 2046 §5.1.1: 1 to 70 of these characters, not ending with a space.
const BCHARS = /^[0-9A-Za-z'()+_,\-./:=? ]{1,70}$/;
const PARAM = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i;
const PARAM_NAME = /;\s*boundary\s*=/gi;

/**
 * The boundary of a `multipart/form-data` Content-Type; a missing, repeated or malformed one is a 400.
 *
 * @example
 * ```ts
 * boundaryOf('multipart/form-data; boundary=----x'); // '----x'
 * ```
 */
export function boundaryOf(contentType: string | undefined): string {
  // Two boundaries: a proxy may split the body on the other one (request smuggling).
  if (((contentType ?? '').match(PARAM_NAME)?.length ?? 0) > 1) {
    throw new HTTPError(400, 'Malformed multipart body: the Content-Type names a boundary more than once.', { Connection: 'close' });
  }
  const match = PARAM.exec(contentType ?? '');
  if (!match) throw new HTTPError(400, 'Malformed multipart body: the Content-Type has no boundary.', { Connection: 'close' });
  const boundary = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!;
  if (!BCHARS.test(boundary) || boundary.endsWith(' ')) {
    throw new HTTPError(400, 'Malformed multipart body: the boundary must be 1 to 70 letters, digits or \'()+_,-./:=? characters.', {
      Connection: 'close',
    });
  }
  return boundary;
}
