import { HTTPError } from '@hickory/core';

/** Most path segments routed (more → 414). */
export const MAX_SEGMENTS = 64;
/** Largest decoded segment in bytes (larger → 414). */
export const MAX_SEGMENT_BYTES = 1024;

/**
 * Splits a raw request path on `/` and percent-decodes each segment once: `%2F`, `..` and `\`
 * stay data inside their segment. A malformed escape or a NUL → 400; more than
 * {@link MAX_SEGMENTS} segments or one over {@link MAX_SEGMENT_BYTES} bytes → 414.
 * The leading `/` gives no segment; a trailing `/` gives a final `''`; any other empty segment
 * (`//`, `/a//b`) → 404. `limit` lowers the segment limit for a path that continues one already
 * partly routed.
 *
 * @example
 * ```ts
 * splitPath('/catalog/books/');  // ['catalog', 'books', '']
 * splitPath('/files/a%2Fb');     // ['files', 'a/b']
 * ```
 */
export function splitPath(path: string, limit: number = MAX_SEGMENTS): string[] {
  if (path.charCodeAt(0) !== 47 /* / */) throw new HTTPError(400, 'The request path must start with "/".');
  // indexOf loops (about three times faster than String.prototype.split here): count, then fill
  // an array of the exact size.
  let count = 1;
  for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) {
    if (++count > limit) throw new HTTPError(414, `The path has more than ${MAX_SEGMENTS} segments.`);
  }
  const segments = new Array<string>(count);
  let start = 1;
  for (let i = 0; i < count - 1; i++) {
    const end = path.indexOf('/', start);
    segments[i] = path.slice(start, end);
    start = end + 1;
  }
  segments[count - 1] = path.slice(start);
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i]!;
    // One rule for `//`: an empty segment names nothing (nothing is collapsed, so `//admin` is
    // not `/admin` behind a proxy's back); only the last may be empty, the trailing slash.
    if (raw.length === 0 && i < segments.length - 1) throw new HTTPError(404, 'The path has an empty segment ("//").');
    let segment = raw;
    if (raw.includes('%')) {
      try {
        segment = decodeURIComponent(raw);
      } catch {
        throw new HTTPError(400, 'The path has a malformed percent-escape.');
      }
      if (segment.includes('\0')) throw new HTTPError(400, 'The path contains a NUL character.');
      segments[i] = segment;
    }
    // A UTF-8 character is at most 3 bytes per UTF-16 unit, so short segments need no count.
    if (segment.length > MAX_SEGMENT_BYTES / 3 && Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) {
      throw new HTTPError(414, `A path segment is longer than ${MAX_SEGMENT_BYTES} bytes.`);
    }
  }
  return segments;
}

/**
 * The fixed extension table used when `guess_content_type_from_ext` is on (never the host's
 * MIME database).
 */
const EXTENSION_TYPES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    json: 'application/json',
    html: 'text/html',
    htm: 'text/html',
    txt: 'text/plain',
    xml: 'application/xml',
    csv: 'text/csv',
    md: 'text/markdown',
    rss: 'application/rss+xml',
    atom: 'application/atom+xml',
  }),
);

/** A known extension found at the end of a path. */
export interface PathExtension {
  /** The segments with the extension removed from the last one. */
  readonly segments: string[];
  /** The media type the extension asks for. */
  readonly mediaType: string;
}

/**
 * Finds a known extension on the last segment (`/books.json`) and returns the segments without
 * it, or `undefined` (no extension, an unknown one, or a trailing `/`).
 *
 * @example
 * ```ts
 * splitExtension(['catalog', 'books.json']); // { segments: ['catalog', 'books'], mediaType: 'application/json' }
 * ```
 */
export function splitExtension(segments: readonly string[]): PathExtension | undefined {
  const last = segments[segments.length - 1];
  if (!last) return undefined;
  const dot = last.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const mediaType = EXTENSION_TYPES[last.slice(dot + 1).toLowerCase()];
  if (mediaType === undefined) return undefined;
  const stripped = segments.slice();
  stripped[stripped.length - 1] = last.slice(0, dot);
  return { segments: stripped, mediaType };
}
