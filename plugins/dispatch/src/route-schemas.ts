import { exposureOf, type Rendering } from './exposure.ts';
import { describeSchema, isStandardSchema, outputJsonSchema, type SchemaDescription } from './standard-schema.ts';

/** The schemas a handler declares, as the route map and the OpenAPI document show them. */
export interface SchemaInfo {
  /** Per parameter name: its JSON Schema, or `'schema'` when the library offers no conversion. */
  readonly schemas?: Readonly<Record<string, SchemaDescription>>;
  /** The body's JSON Schema, or `'schema'`. */
  readonly body?: SchemaDescription;
}

/**
 * What `expose({ args, body })` / `when(…, { args, body })` declared on `fn`, described: only the
 * keys that are declared are present, so a handler without schemas adds nothing to its route.
 *
 * @example
 * ```ts
 * schemaInfo(Root.prototype.show); // { schemas: { id: { type: 'integer', … } } }
 * ```
 */
export function schemaInfo(fn: Function): SchemaInfo {
  const exposure = exposureOf(fn);
  const info: { schemas?: Record<string, SchemaDescription>; body?: SchemaDescription } = {};
  if (exposure?.args !== undefined) {
    const schemas: Record<string, SchemaDescription> = {};
    for (const name of Object.keys(exposure.args)) {
      const schema = exposure.args[name];
      // A key such as `__proto__` stays an ordinary entry of the description.
      Object.defineProperty(schemas, name, { value: isStandardSchema(schema) ? describeSchema(schema) : 'schema', enumerable: true, writable: true, configurable: true });
    }
    info.schemas = schemas;
  }
  if (isStandardSchema(exposure?.bodySchema)) info.body = describeSchema(exposure.bodySchema);
  return info;
}

/**
 * A short label of a described schema for one line of text: its JSON type (`integer`,
 * `string|null`) when it has one, else `schema`.
 *
 * @example
 * ```ts
 * schemaLabel({ type: 'integer' }); // 'integer'
 * schemaLabel('schema');            // 'schema'
 * ```
 */
export function schemaLabel(description: SchemaDescription): string {
  if (description === 'schema') return 'schema';
  const type = description['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type.join('|');
  return 'schema';
}

/**
 * The JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of the value `fn` answers with in
 * `rendering`, when it declared a response schema for it (`expose('json', { response })`);
 * `'schema'` when its library cannot express it (`ready()` refuses such a schema, so only a route
 * never checked shows it); `undefined` without one.
 *
 * @example
 * ```ts
 * responseDescription(Root.prototype.hello, renderingsOf(Root.prototype.hello)[0]!);
 * // { type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'], additionalProperties: false }
 * ```
 */
export function responseDescription(fn: Function, rendering: Rendering): SchemaDescription | undefined {
  const declared = exposureOf(fn)?.response;
  if (declared === undefined || declared.rendering !== rendering) return undefined;
  if (!isStandardSchema(declared.schema)) return 'schema';
  try {
    return outputJsonSchema(declared.schema, 'draft-2020-12') ?? 'schema';
  } catch {
    return 'schema';
  }
}
