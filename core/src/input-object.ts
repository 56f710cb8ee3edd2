/**
 * The prototype of objects built from a request's input (JSON bodies, `kwargs`). Its own prototype
 * is `null`, so nothing of `Object.prototype` is inherited — no polluted key, no `constructor`,
 * no `__proto__` accessor — but, unlike a bare null-prototype object, it can be printed: a template
 * engine that writes an object calls `String()` or `toString()` on it, which throws for an object
 * with no prototype at all. It prints as any object does, `[object Object]`. Frozen: shared by
 * every request.
 */
export const INPUT_OBJECT_PROTOTYPE: object = Object.freeze(
  Object.create(null, {
    [Symbol.toPrimitive]: { value: printed },
    // An accessor, not a value: a frozen prototype's read-only `toString` would make a plain
    // `input.toString = '1'` (a form field of that name copied into kwargs) throw. The setter gives
    // the object its own property instead, as an assignment to an ordinary object would.
    toString: {
      get: () => printed,
      set(this: object, value: unknown) {
        Object.defineProperty(this, 'toString', { value, writable: true, enumerable: true, configurable: true });
      },
    },
  }) as object,
);

function printed(): string {
  return '[object Object]';
}

/**
 * A new empty object with {@link INPUT_OBJECT_PROTOTYPE}: for values made from request input that
 * handlers receive and templates may print.
 *
 * @example
 * ```ts
 * const kwargs = inputObject<string>();
 * kwargs['name'] = 'Dune';
 * `${kwargs}`; // '[object Object]' (a bare Object.create(null) would throw here)
 * 'hasOwnProperty' in kwargs; // false
 * ```
 */
export function inputObject<T = unknown>(): Record<string, T> {
  return Object.create(INPUT_OBJECT_PROTOTYPE) as Record<string, T>;
}
