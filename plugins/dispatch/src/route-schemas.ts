import { exposureOf } from './exposure.ts';
import { describeSchema, isStandardSchema, type SchemaDescription } from './standard-schema.ts';

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
