/**
 * The path of an absolute-form request target (`GET http://host/a?b HTTP/1.1` routes by `/a` only;
 * the query was split off before): the authority is the `Host`'s business, never routing's.
 *
 * @example
 * ```ts
 * pathOfAbsoluteForm('http://books.example/a/b'); // '/a/b'
 * ```
 */
export function pathOfAbsoluteForm(target: string): string {
  const scheme = target.indexOf('://');
  if (scheme === -1) return target;
  const slash = target.indexOf('/', scheme + 3);
  return slash === -1 ? '/' : target.slice(slash);
}
