import type { Response } from './response.ts';

/**
 * Adds `field` to the response's `Vary` header unless it is there already (compared without case,
 * whether the header is one line or several) or `Vary: *` makes it moot. Several plugins add to
 * `Vary` (negotiation `Accept`, compression `Accept-Encoding`, CORS `Origin`): each keeps the
 * others' fields and none is written twice. Hand-written rather than the `vary` package, which
 * works on Node's `ServerResponse`, not on the kernel's header map, and is these few lines.
 *
 * @example
 * ```ts
 * varyOn(response, 'Accept-Encoding'); // Vary: Accept-Encoding (or "Accept, Accept-Encoding")
 * ```
 */
export function varyOn(response: Response, field: string): void {
  const headers = response.headerMap;
  const current = headers.get('vary');
  if (current === undefined) {
    headers.set('Vary', field);
    return;
  }
  const lines = typeof current === 'string' ? [current] : current;
  const wanted = field.toLowerCase();
  for (const line of lines) {
    for (const token of line.split(',')) {
      const name = token.trim().toLowerCase();
      if (name === wanted || name === '*') return;
    }
  }
  const joined = lines.map((line) => line.trim()).filter((line) => line.length > 0);
  joined.push(field);
  headers.set('Vary', joined.join(', '));
}
