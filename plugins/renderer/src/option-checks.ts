import type { RendererDefinition } from './define-renderer.ts';

/**
 * A check for {@link RendererDefinition.options}: the value must be an object whose values are all
 * functions (filters, helpers), keyed by the name templates use.
 *
 * @example
 * ```ts
 * defineRenderer({ name: 'x', extensions: ['x'], options: { helpers: namedFunctions }, create: (ctx) => ({ render: (file) => ctx.read(file) }) });
 * namedFunctions({ upper: (s: string) => s.toUpperCase() }); // undefined: fine
 * ```
 */
export function namedFunctions(value: unknown): string | undefined {
  const problem = namedValues(value);
  if (problem !== undefined) return problem.replace('values', 'functions');
  const bad = Object.entries(value as object).find(([, entry]) => typeof entry !== 'function');
  return bad === undefined ? undefined : `must map names to functions ("${bad[0]}" is ${typeof bad[1]})`;
}

/**
 * A check for {@link RendererDefinition.options}: the value must be an object (constants and
 * functions templates see by name).
 *
 * @example
 * ```ts
 * namedValues({ site: 'Books' }); // undefined: fine
 * namedValues(['Books']); // 'must be an object mapping names to values'
 * ```
 */
export function namedValues(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be an object mapping names to values';
}
