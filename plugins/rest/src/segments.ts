/**
 * The non-empty segments of a resource's remainder (a trailing slash leaves an empty one); the
 * same array when none is empty (the usual case), never changed.
 *
 * @example
 * ```ts
 * withoutEmpty(['7', '']); // ['7']
 * ```
 */
export function withoutEmpty(remainder: readonly string[]): readonly string[] {
  if (!remainder.includes('')) return remainder;
  return remainder.filter((segment) => segment !== '');
}
