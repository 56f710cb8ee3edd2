/**
 * Whether a `Content-Type` is worth compressing: `text/*` (but `text/event-stream`, whose events
 * zlib would hold back until a block is full), JSON and `+json`, JavaScript, SVG, XML and `+xml`
 * — the textual types the contract names. A short pattern rather than the `compressible` package:
 * its table (mime-db) also says yes to fonts and other types the contract leaves alone.
 *
 * @example
 * ```ts
 * isCompressible('application/json; charset=utf-8'); // true
 * isCompressible('image/png'); // false
 * ```
 */
export function isCompressible(contentType: string): boolean {
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  if (type.startsWith('text/')) return type !== 'text/event-stream';
  return COMPRESSIBLE.test(type);
}

const COMPRESSIBLE = /^(?:application\/(?:json|javascript|x-javascript|ecmascript|xml|[\w.+-]+\+(?:json|xml))|image\/svg\+xml|[\w.-]+\/[\w.-]+\+xml)$/;
