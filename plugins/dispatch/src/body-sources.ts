import { HTTPError } from '@hickory/core';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ParameterList } from './parameters.ts';
import { describeSchema } from './standard-schema.ts';

/**
 * The top-level property names a body schema declares, as its Standard JSON Schema lists them
 * (zod 4.2+, arktype); empty when the library describes none or the converter refuses the schema.
 * These parameters come from the body only, even when a body leaves an optional one out.
 *
 * @example
 * ```ts
 * declaredBodyNames(z.object({ title: z.string(), year: z.number().optional() })); // Set { 'title', 'year' }
 * declaredBodyNames(v.object({ title: v.string() }));                             // Set {} (valibot describes none)
 * ```
 */
export function declaredBodyNames(schema: StandardSchemaV1): ReadonlySet<string> {
  const described = describeSchema(schema);
  const properties = described === 'schema' ? undefined : described['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return EMPTY;
  return new Set(Object.keys(properties));
}

/**
 * True when the body schema fills the parameter `name`: the schema declares it, or its output
 * (the validated body) has it as an own property.
 *
 * @example
 * ```ts
 * fillsParameter(new Set(['title']), { year: 1965 }, 'year'); // true: the output has it
 * ```
 */
export function fillsParameter(declared: ReadonlySet<string>, output: unknown, name: string): boolean {
  if (declared.has(name)) return true;
  return typeof output === 'object' && output !== null && !Array.isArray(output) && Object.prototype.hasOwnProperty.call(output, name);
}

/**
 * Throws the route's 404 when a path segment would land on a parameter `filled` says the body
 * fills: such a parameter takes its value from the validated body alone, so a path that reaches
 * it does not fit the handler (as a segment too many does not). Segments fill the parameters in
 * order (a `kwargs` parameter takes none; `...rest` takes the remaining ones).
 *
 * @example
 * ```ts
 * refuseSegmentsOnBody(parametersOf(function add(title, year) {}), ['LONG'], (name) => name === 'title'); // throws 404
 * ```
 */
export function refuseSegmentsOnBody(params: ParameterList, remainder: readonly string[], filled: (name: string) => boolean): void {
  let next = 0;
  for (const param of params.list) {
    if (next >= remainder.length || param.rest) return;
    if (param.name === 'kwargs' || param.supplied === true) continue;
    if (param.name !== null && filled(param.name)) throw new HTTPError(404, 'The resource could not be found.');
    next++;
  }
}

const EMPTY: ReadonlySet<string> = new Set();
