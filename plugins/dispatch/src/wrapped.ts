// Which function a wrapper made with `wraps()` stands for: read by argument mapping (parameters.ts)
// and written by wraps.ts, kept apart so that neither imports the other.
const originals = new WeakMap<Function, Function>();

/**
 * Records that `wrapper` stands for `original` (see `wraps`).
 *
 * @example
 * ```ts
 * markWrapped(wrapper, Books.prototype.show);
 * ```
 */
export function markWrapped(wrapper: Function, original: Function): void {
  originals.set(wrapper, original);
}

/**
 * True when `fn` was made with `wraps()`.
 *
 * @example
 * ```ts
 * isMarkedWrapper(wrapper); // true
 * ```
 */
export function isMarkedWrapper(fn: Function): boolean {
  return originals.has(fn);
}

/**
 * The function whose parameters `fn` takes: the original it wraps (through every layer of
 * `wraps`), else `fn`.
 *
 * @example
 * ```ts
 * wrappedOriginal(Books.prototype.show); // the undecorated show
 * ```
 */
export function wrappedOriginal(fn: Function): Function {
  let current = fn;
  // Bounded: a chain longer than any real stack of decorators is cut short.
  for (let i = 0, next = originals.get(current); next !== undefined && i < 64; i++, next = originals.get(current)) current = next;
  return current;
}
