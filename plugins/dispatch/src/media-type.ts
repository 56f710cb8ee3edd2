const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;[^\\r\\n\\0]*)?$`);

/**
 * True when `value` is a media type usable in `Content-Type` (`type/subtype`, optional parameters).
 *
 * @example
 * ```ts
 * isMediaType('text/csv; charset=latin1'); // true
 * isMediaType('text');                      // false
 * ```
 */
export function isMediaType(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_TYPE.test(value);
}

/**
 * The media type without parameters, lower-cased.
 *
 * @example
 * ```ts
 * essence('Text/CSV; charset=utf-8'); // 'text/csv'
 * ```
 */
export function essence(type: string): string {
  const semi = type.indexOf(';');
  return (semi === -1 ? type : type.slice(0, semi)).trim().toLowerCase();
}
