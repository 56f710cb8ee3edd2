import { dispatchError } from './errors.ts';

// Taken once at load time: a later pollution of Object.prototype cannot shrink this set, and
// routing never reads through Object.prototype anyway. Function.prototype's names (`name`,
// `length`, `call`, `apply`, `bind`) are ordinary words: routing reads its own table of a class,
// never a function's properties, so they stay routable (contract v2).
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'constructor', 'prototype']);

/** The special methods: found by name, never addressable by a URL. */
export const SPECIAL_NAMES: ReadonlySet<string> = new Set(['_lookup', '_default', '_route']);

/**
 * True when a member name may be reached by a URL segment: not empty, not starting with `_`,
 * and not a member of `Object.prototype` (nor `prototype`).
 *
 * @example
 * ```ts
 * isRoutableName('books');       // true
 * isRoutableName('constructor'); // false
 * isRoutableName('_private');    // false
 * ```
 */
export function isRoutableName(name: string): boolean {
  return name.length > 0 && name.charCodeAt(0) !== 95 /* _ */ && !PROTOTYPE_NAMES.has(name);
}

const SEGMENT = /^[0-9A-Za-z\-_$().~!,;:*+@=]+$/;

/**
 * Throws a coded error unless `segment` may be used as an explicit route: the characters
 * `[0-9A-Za-z-_$().~!,;:*+@=]`, not `.` or `..`, and a routable name.
 *
 * @example
 * ```ts
 * assertSegment('best-sellers'); // fine
 * assertSegment('a/b');          // throws HICKORY_ERR_DISPATCH_SEGMENT
 * ```
 */
export function assertSegment(segment: unknown): asserts segment is string {
  if (typeof segment !== 'string') throw dispatchError('HICKORY_ERR_DISPATCH_SEGMENT', describeValue(segment), 'a segment is a string');
  if (!SEGMENT.test(segment)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_SEGMENT', JSON.stringify(segment), 'use only the characters 0-9 A-Z a-z - _ $ ( ) . ~ ! , ; : * + @ =, and no "/"');
  }
  if (segment === '.' || segment === '..') throw dispatchError('HICKORY_ERR_DISPATCH_SEGMENT', JSON.stringify(segment), '"." and ".." are path steps, not segments');
  if (!isRoutableName(segment)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_SEGMENT', JSON.stringify(segment), 'names starting with "_" and names of Object.prototype members are never routable');
  }
}

/**
 * The class name of a controller for messages, read through descriptors (no getter runs).
 *
 * @example
 * ```ts
 * controllerName(new BooksController()); // 'BooksController'
 * ```
 */
export function controllerName(value: object): string {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null) return 'object';
  const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
  const name = typeof ctor === 'function' ? Object.getOwnPropertyDescriptor(ctor, 'name')?.value : undefined;
  return typeof name === 'string' && name ? name : 'object';
}

/**
 * A short description of a value for error messages.
 *
 * @example
 * ```ts
 * describeValue([1, 2]); // 'an array'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return `function ${(value as { name?: string }).name || '(anonymous)'}`;
  if (typeof value === 'object') return `an object (${controllerName(value)})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Decorator options as error messages show them: JSON, with each schema (or other object below
 * the top level, which may be large or cyclic) reduced to a short description.
 *
 * @example
 * ```ts
 * describeOptions({ template: 'json', args: { id: z.number() } }); // '{"template":"json","args":{"id":"an object (ZodNumber)"}}'
 * ```
 */
export function describeOptions(value: unknown): string {
  if (typeof value !== 'object' || value === null) return describeValue(value);
  const shown = (v: unknown): unknown => (typeof v === 'object' && v !== null ? describeValue(v) : typeof v === 'function' ? describeValue(v) : v);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key === 'args' && typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, shown(s)])) : Array.isArray(v) ? v.map(shown) : shown(v);
  }
  return JSON.stringify(out);
}
