import { HTTPError } from './http-error.ts';
import { INPUT_OBJECT_PROTOTYPE } from './input-object.ts';

// Keys that would let parsed input reach a prototype; refused like fastify and hapi do.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// The cheap pre-check: a forbidden key can only be present if one of these appears in the
// text, written plainly or through a \u escape.
const SUSPICIOUS = /__proto__|constructor|prototype|\\u/;

/**
 * Parses a JSON body safely: malformed JSON → 400, a `__proto__`, `constructor` or `prototype`
 * key at any depth (also when written with `\u` escapes) → 400, and every object of the result
 * has {@link INPUT_OBJECT_PROTOTYPE} (nothing of `Object.prototype`, yet printable).
 *
 * @example
 * ```ts
 * parseJsonBody('{"name":"Dune"}'); // { name: 'Dune' }, no Object.prototype in its chain
 * parseJsonBody('{"__proto__":{}}'); // throws HTTPError 400
 * ```
 */
export function parseJsonBody(text: string): unknown {
  const checkKeys = SUSPICIOUS.test(text);
  try {
    return JSON.parse(text, function reviver(this: unknown, key: string, value: unknown) {
      if (checkKeys && FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return Object.setPrototypeOf(value, INPUT_OBJECT_PROTOTYPE);
      }
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKey) {
      throw new HTTPError(400, `The JSON body has a forbidden key "${error.key}".`);
    }
    throw new HTTPError(400, 'The request body is not valid JSON.');
  }
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/**
 * True for a JSON media type (`application/json`, `application/*+json`), given without parameters.
 *
 * @example
 * ```ts
 * isJsonMediaType('application/vnd.api+json'); // true
 * ```
 */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * Refuses a JSON body whose `Content-Type` declares a charset other than UTF-8 with 415: JSON
 * exchanged between systems is UTF-8 (RFC 8259 §8.1), and reading other bytes as UTF-8 would
 * quietly change them.
 *
 * @example
 * ```ts
 * checkJsonCharset('application/json; charset=utf-8'); // fine
 * checkJsonCharset('application/json; charset=latin1'); // throws HTTPError 415
 * ```
 */
export function checkJsonCharset(contentType: string | undefined): void {
  const charset = CHARSET.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return;
  const named = /^[\w.:+-]{1,40}$/.test(charset) ? `charset "${charset}"` : 'another charset';
  throw new HTTPError(415, `A JSON body must be UTF-8; this one declares ${named}.`);
}
