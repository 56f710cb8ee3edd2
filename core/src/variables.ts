import { parse as parseQueryString } from 'node:querystring';
import { HTTPError } from './http-error.ts';

/** A variable from a query string or body: repeated keys give an array. */
export type VariableValue = string | string[];

/**
 * Variables parsed from client input: a null-prototype object, so no key can reach
 * `Object.prototype` (`__proto__`, `constructor` and friends are plain keys here).
 */
export type Variables = Record<string, unknown>;

/**
 * Parses `a=1&b=2&a=3` into null-prototype {@link Variables} (`{ a: ['1', '3'], b: '2' }`),
 * refusing more than `limit` parameters with 413 instead of silently dropping them.
 *
 * @example
 * ```ts
 * parseUrlEncoded('name=Dune&tag=a&tag=b', 1000); // { name: 'Dune', tag: ['a', 'b'] }
 * ```
 */
export function parseUrlEncoded(text: string, limit: number): Variables {
  if (text.length === 0) return Object.create(null);
  let count = 1;
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (++count > limit) {
      throw new HTTPError(413, `Too many parameters: at most ${limit} are accepted.`);
    }
  }
  // node:querystring returns a null-prototype object and arrays for repeated keys.
  return parseQueryString(text, '&', '=', { maxKeys: 0 }) as Variables;
}

/**
 * Merges two variable sets into a new null-prototype object; a key present in both
 * gets the values of both, in order, as an array.
 *
 * @example
 * ```ts
 * mergeVariables({ a: '1' }, { a: '2', b: '3' }); // { a: ['1', '2'], b: '3' }
 * ```
 */
export function mergeVariables(first: Variables, second: Variables): Variables {
  const out: Variables = Object.create(null);
  for (const key in first) out[key] = first[key];
  for (const key in second) {
    if (key in out) {
      const a = out[key];
      const b = second[key];
      out[key] = [...(Array.isArray(a) ? a : [a]), ...(Array.isArray(b) ? b : [b])];
    } else {
      out[key] = second[key];
    }
  }
  return out;
}
