import type { Response } from '@hickory/core';

/**
 * Adds `field` to the response's `Vary`, keeping what is there and never listing a field twice
 * (nor anything next to `*`). Hand-written rather than the `vary` package: that one takes a
 * Node `ServerResponse` or a string and ships no types, while this works on Hickory's header map
 * (where a handler may have stored `Vary` as a list).
 *
 * @example
 * ```ts
 * response.headers['Vary'] = 'Accept-Encoding';
 * addVary(response, 'Origin'); // Vary: Accept-Encoding, Origin
 * ```
 */
export function addVary(response: Response, field: string): void {
  const current = response.headerMap.get('vary');
  if (current === undefined) {
    response.headerMap.setKnown('vary', 'Vary', field);
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : current;
  const wanted = field.toLowerCase();
  for (const part of value.split(',')) {
    const name = part.trim().toLowerCase();
    if (name === '*' || name === wanted) return;
  }
  response.headerMap.set('Vary', value.trim() === '' ? field : `${value}, ${field}`);
}
