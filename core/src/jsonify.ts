/** Turns a value of a registered type into something JSON can hold. */
export type JsonEncoder<T = never> = (value: T) => unknown;

// By constructor; looked up along the value's prototype chain, so a subclass uses its base
// class's encoder unless it has its own.
const encoders = new Map<Function, JsonEncoder<never>>();

/**
 * Pecan's `jsonify`: the JSON encoding of `@expose('json')` and `response.json`. Registered
 * encoders come first (a subclass's own, then its base classes'), then a value's `toJSON`; built
 * in: `BigInt` → string, `Map` → object, `Set` → array, `Date` → ISO string. A value that cannot
 * be encoded (a cycle) throws, which makes the request a logged 500.
 *
 * @example
 * ```ts
 * jsonify.register(Money, (m) => ({ amount: m.cents / 100, currency: m.currency }));
 * jsonify.encode({ total: new Money(1250, 'EUR'), seen: new Set(['a']) });
 * // '{"total":{"amount":12.5,"currency":"EUR"},"seen":["a"]}'
 * ```
 */
export const jsonify = Object.freeze({
  /** Registers (or, with `undefined`, removes) the encoder of a class. */
  register<T>(type: abstract new (...args: never[]) => T, encoder: JsonEncoder<T> | undefined): void {
    if (typeof type !== 'function') throw new TypeError('jsonify.register(Type, encoder): Type must be a class');
    if (encoder === undefined) encoders.delete(type);
    else if (typeof encoder !== 'function') throw new TypeError('jsonify.register(Type, encoder): encoder must be a function');
    else encoders.set(type, encoder as JsonEncoder<never>);
  },
  /** The JSON text of `value` (`'null'` for `undefined`). */
  encode(value: unknown): string {
    return JSON.stringify(value, replace) ?? 'null';
  },
});

// Called for every key; `this[key]` is the value before its toJSON ran, so registered encoders
// win over toJSON.
function replace(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  if (typeof original === 'bigint') return original.toString();
  if (typeof original !== 'object' || original === null) return value;
  if (encoders.size > 0) {
    for (let proto = Object.getPrototypeOf(original) as { constructor?: unknown } | null; proto !== null; proto = Object.getPrototypeOf(proto)) {
      const encoder = encoders.get(Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as Function);
      if (encoder !== undefined) return (encoder as JsonEncoder<unknown>)(original);
    }
  }
  if (original instanceof Map) return Object.fromEntries(original);
  if (original instanceof Set) return [...original];
  return value;
}
