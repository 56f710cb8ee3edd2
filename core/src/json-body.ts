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
