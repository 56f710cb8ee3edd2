import { isUtf8 } from 'node:buffer';
import { HTTPError } from './http-error.ts';

/** A variable from a query string or body: repeated keys give an array. */
export type VariableValue = string | string[];

/**
 * Variables parsed from client input: a null-prototype object, so no key can reach
 * `Object.prototype` (`__proto__`, `constructor` and friends are plain keys here).
 */
export type Variables = Record<string, unknown>;

/** Where urlencoded text came from: it decides the status for too many parameters. */
export type UrlEncodedSource = 'query' | 'body';

/**
 * Parses `a=1&b=2&a=3` into null-prototype {@link Variables} (`{ a: ['1', '3'], b: '2' }`).
 * Empty pairs (`a=1&&b=2`) are no parameters. A malformed percent-escape (`%zz`, `%`) or bytes
 * that are not UTF-8 (`%FF`) → 400 naming the source; more than `limit` parameters → 400 for a
 * query string (a URL that long is the client's mistake, not a body too large), 413 for a body.
 *
 * @example
 * ```ts
 * parseUrlEncoded('name=Dune&tag=a&tag=b', 1000, 'query'); // { name: 'Dune', tag: ['a', 'b'] }
 * parseUrlEncoded('value=%FF', 1000, 'body'); // throws HTTPError 400
 * ```
 */
export function parseUrlEncoded(text: string, limit: number, source: UrlEncodedSource = 'body'): Variables {
  const out: Variables = Object.create(null);
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) {
      if (++count > limit) throw tooManyParameters(limit, source);
      const pair = text.slice(start, end);
      const eq = pair.indexOf('=');
      const key = decodeComponent(eq === -1 ? pair : pair.slice(0, eq), source);
      const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1), source);
      const existing = out[key];
      if (existing === undefined) out[key] = value;
      else if (Array.isArray(existing)) existing.push(value);
      else out[key] = [existing as string, value];
    }
    start = end + 1;
  }
  return out;
}

function decodeComponent(text: string, source: UrlEncodedSource): string {
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    const where = source === 'query' ? 'query string' : 'form body';
    throw new HTTPError(400, `The ${where} has a malformed percent-escape or bytes that are not UTF-8.`);
  }
}

function tooManyParameters(limit: number, source: UrlEncodedSource): HTTPError {
  return source === 'query'
    ? new HTTPError(400, `Too many parameters in the query string: at most ${limit} are accepted.`)
    : new HTTPError(413, `Too many parameters: at most ${limit} are accepted.`);
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

/**
 * {@link parseUrlEncoded} for a body's bytes: bytes that are not UTF-8 → 400, as escapes would be.
 *
 * @example
 * ```ts
 * parseUrlEncodedBody(Buffer.from('name=D%C3%BCne'), 1000); // { name: 'Düne' }
 * ```
 */
export function parseUrlEncodedBody(body: Buffer, limit: number): Variables {
  if (!isUtf8(body)) throw new HTTPError(400, 'The form body has a malformed percent-escape or bytes that are not UTF-8.');
  return parseUrlEncoded(body.toString('utf8'), limit, 'body');
}
