import { crc32 } from './crc32.ts';
import type { Request } from './request.ts';
import type { Response } from './response.ts';

/**
 * The `etag` key's work on a final response, just before it is written: a GET or HEAD 200 with a
 * buffered body (a string or bytes, not empty, no `app_iter`) gets a weak `ETag`
 * (`W/"<byte length in hex>-<CRC-32 of the body in hex>"`, {@link weakTag}) unless it has one
 * already, and when the request's `If-None-Match` matches that tag (weak comparison, a list, or `*`)
 * the response becomes a 304 without a body: `ETag`, `Cache-Control`, `Vary` and the other headers
 * stay, the content headers go. `generate: false` (the `etag` key off) still answers 304 for a tag
 * the application set itself, as Express does. A request without `If-None-Match` and
 * `generate: false` costs one header read. Returns the body's byte length when it measured it for
 * a tag (the `Content-Length` the writer would otherwise measure again), else `undefined`.
 *
 * @example
 * ```ts
 * const length = answerConditional(request, response, kernel.config.etag); // before the response is written
 * ```
 */
export function answerConditional(request: Request, response: Response, generate: boolean): number | undefined {
  const ifNoneMatch = request.raw.headers['if-none-match'];
  if (!generate && ifNoneMatch === undefined) return undefined;
  const method = request.method;
  if (response.status !== 200 || (method !== 'GET' && method !== 'HEAD')) return undefined;
  const body = response.body;
  // A stream (`app_iter`) leaves `body` null; an empty body becomes a 204 and has no tag.
  if (body === null || body.length === 0) return undefined;
  const headers = response.headerMap;
  let tag = headers.hasKey('etag') ? headers.get('etag') : undefined;
  let length: number | undefined;
  if (tag === undefined) {
    if (!generate) return undefined;
    length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    tag = tagOf(length, crc32(body));
    headers.setKnown('etag', 'ETag', tag);
  }
  if (ifNoneMatch === undefined || typeof tag !== 'string' || !noneMatchHits(ifNoneMatch, tag) || reloads(request)) return length;
  response.status = 304;
  response.body = null;
  // RFC 9110 §15.4.5: a 304 carries the validators and caching headers, not the content's.
  headers.delete('content-type');
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return undefined;
}

/**
 * The weak tag of a body: `W/"<byte length in hex>-<CRC-32 of its bytes in 8 hex digits>"` (a
 * string's bytes are its UTF-8, so a string and its bytes have the same tag).
 *
 * CRC-32 because it is zlib's, one call into native code at any size: for a small JSON answer no
 * more instructions than a hash loop in JavaScript (which reads a string's characters one call at
 * a time), fewer past a few dozen bytes, and for a large body less than half SHA-1's (callgrind,
 * Node 20 and 26). A weak
 * validator needs no cryptographic strength: with the length in the tag, a false match between two
 * versions of one resource is a 1-in-4-billion event (and CRC-32 catches every change confined to
 * 32 neighbouring bits), its worst outcome one stale 304.
 *
 * @example
 * ```ts
 * weakTag('hello'); // 'W/"5-3610a686"'
 * ```
 */
export function weakTag(body: string | Uint8Array): string {
  return tagOf(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, crc32(body));
}

// The character codes of the hex digits 0-9a-f.
const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
const char = String.fromCharCode;

// `W/"<length in hex>-<hash in 8 hex digits>"`, made in one call as one flat string below 4 KiB (most
// answers): joined from pieces, V8 would make a rope of them (past 12 characters), which Node's
// header check then copies flat again, and `toString(16)` (of the length, and of a hash past 2^30
// above all) is a call into V8's runtime — together they would cost more than the hash itself.
function tagOf(length: number, hash: number): string {
  const h0 = HEX[hash >>> 28]!;
  const h1 = HEX[(hash >>> 24) & 15]!;
  const h2 = HEX[(hash >>> 20) & 15]!;
  const h3 = HEX[(hash >>> 16) & 15]!;
  const h4 = HEX[(hash >>> 12) & 15]!;
  const h5 = HEX[(hash >>> 8) & 15]!;
  const h6 = HEX[(hash >>> 4) & 15]!;
  const h7 = HEX[hash & 15]!;
  if (length < 0x10) return char(87, 47, 34, HEX[length]!, 45, h0, h1, h2, h3, h4, h5, h6, h7, 34);
  if (length < 0x100) return char(87, 47, 34, HEX[length >>> 4]!, HEX[length & 15]!, 45, h0, h1, h2, h3, h4, h5, h6, h7, 34);
  if (length < 0x1000) return char(87, 47, 34, HEX[length >>> 8]!, HEX[(length >>> 4) & 15]!, HEX[length & 15]!, 45, h0, h1, h2, h3, h4, h5, h6, h7, 34);
  return `W/"${length.toString(16)}-${char(h0, h1, h2, h3, h4, h5, h6, h7)}"`;
}

/**
 * Whether an `If-None-Match` value names `tag` by weak comparison (RFC 9110 §13.1.2: `W/` ignored on
 * both sides), or is `*`. Read as a list of quoted tags, so a comma inside quotes does not split
 * one; what is not a tag is skipped.
 *
 * @example
 * ```ts
 * noneMatchHits('"a", W/"b"', 'W/"b"'); // true
 * ```
 */
export function noneMatchHits(header: string | string[], tag: string): boolean {
  const value = typeof header === 'string' ? header : header.join(',');
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  let at = 0;
  while (at < value.length) {
    const c = value.charCodeAt(at);
    if (c === 0x20 || c === 0x09 || c === 0x2c) {
      at++;
      continue;
    }
    if (c === 0x2a /* * */) return true;
    let start = at;
    if (c === 0x57 /* W */ && value.charCodeAt(at + 1) === 0x2f /* / */) start = at += 2;
    if (value.charCodeAt(at) !== 0x22 /* " */) {
      // Not a tag: skip to the next comma.
      const comma = value.indexOf(',', at);
      if (comma === -1) return false;
      at = comma + 1;
      continue;
    }
    const close = value.indexOf('"', at + 1);
    if (close === -1) return false;
    if (close + 1 - start === opaque.length && value.startsWith(opaque, start)) return true;
    at = close + 1;
  }
  return false;
}

// A browser's reload sends `Cache-Control: no-cache`: it asks for the full answer, as `fresh` (Express) reads it.
function reloads(request: Request): boolean {
  const cacheControl = request.raw.headers['cache-control'];
  return cacheControl !== undefined && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test(cacheControl);
}
