import { HTTPError } from '@hickory/core';
import { parse as parseContentType } from 'content-type';

// The charset labels whose text fields busboy decodes correctly (lower case). Its fallback for any
// other label yields no value at all, so such fields are refused before they reach it.
const DECODED = new Set([
  'utf-8',
  'utf8',
  'us-ascii',
  'ascii',
  'latin1',
  'iso-8859-1',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'windows-1252',
  'cp1252',
  'x-cp1252',
  'utf-16le',
  'utf16le',
  'ucs-2',
  'ucs2',
]);

const PRINTABLE_LABEL = /^[\w.:+-]{1,40}$/;
const FILENAME_PARAM = /;\s*filename\*?\s*=/i;

/**
 * Checks one part's header block (the lines between its boundary and the blank line): a text
 * field whose `Content-Type` declares a charset the parser cannot decode is refused with 415
 * naming it. File parts keep their bytes as sent, so their charset is never a problem.
 *
 * @example
 * ```ts
 * checkTextPartCharset('Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=gbk');
 * // throws HTTPError 415: … charset "gbk" …
 * ```
 */
export function checkTextPartCharset(headerBlock: string): void {
  let contentType: string | undefined;
  let disposition: string | undefined;
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The parser reads the first of each header, so this does too.
    if (name === 'content-type') contentType ??= line.slice(colon + 1).trim();
    else if (name === 'content-disposition') disposition ??= line.slice(colon + 1);
  }
  if (contentType === undefined || (disposition !== undefined && FILENAME_PARAM.test(disposition))) return;
  const parsed = parseContentType(contentType);
  if (parsed.type === 'application/octet-stream') return;
  const charset = parsed.parameters['charset']?.toLowerCase();
  if (charset === undefined || DECODED.has(charset)) return;
  throw undecodableCharset(charset);
}

/**
 * The 415 for a text field in a charset that cannot be decoded (`charset` is the client's label,
 * shown only when it is a plain token).
 *
 * @example
 * ```ts
 * throw undecodableCharset('shift_jis');
 * ```
 */
export function undecodableCharset(charset?: string): HTTPError {
  const named = charset !== undefined && PRINTABLE_LABEL.test(charset) ? `charset "${charset}"` : 'a charset';
  return new HTTPError(
    415,
    `A multipart text field declares ${named} that this server does not decode: send text fields as UTF-8 (or US-ASCII, ISO-8859-1, UTF-16LE).`,
    { Connection: 'close' },
  );
}
