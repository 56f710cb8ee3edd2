import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

/** What a JSON Schema conversion yields: the schema, or `'schema'` when the library offers none. */
export type SchemaDescription = Record<string, unknown> | 'schema';

/**
 * True when `value` implements Standard Schema v1 (zod, valibot, arktype, …): a `~standard`
 * object of version 1 with a `validate` function. Schemas may be functions (arktype's are).
 *
 * @example
 * ```ts
 * isStandardSchema(z.string()); // true
 * isStandardSchema({ type: 'string' }); // false: a JSON Schema is not a validator
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && (props as { version?: unknown }).version === 1 && typeof (props as { validate?: unknown }).validate === 'function';
}

/**
 * The JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of what a schema accepts, through the
 * Standard JSON Schema converter (`~standard.jsonSchema.input`) when the library offers it;
 * otherwise, or when the converter refuses this schema (a transform, a custom check), `'schema'`.
 * The `$schema` key is dropped: the document that embeds it already says its dialect.
 *
 * @example
 * ```ts
 * describeSchema(z.coerce.number().int()); // { type: 'integer', minimum: …, maximum: … }
 * describeSchema(v.string());              // 'schema' (valibot converts through a separate package)
 * ```
 */
export function describeSchema(schema: StandardSchemaV1): SchemaDescription {
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (typeof converter?.input !== 'function') return 'schema';
  try {
    const { $schema: _dialect, ...rest } = converter.input({ target: 'draft-2020-12' });
    return rest;
  } catch {
    // The spec lets a converter throw for what it cannot express: the route still has a schema.
    return 'schema';
  }
}

/**
 * The JSON Schema of what a schema outputs (what a handler's value is, as JSON sends it), through
 * the Standard JSON Schema converter (`~standard.jsonSchema.output`, spec 1.1), for `target`;
 * `undefined` when the library offers no converter. What the converter throws (a transform, a
 * `Date`, a custom check it cannot express) is thrown. The `$schema` key is dropped.
 *
 * @example
 * ```ts
 * outputJsonSchema(z.object({ hello: z.string() }), 'draft-07');
 * // { type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'], additionalProperties: false }
 * outputJsonSchema(v.object({}), 'draft-07'); // undefined: wrap it with toStandardJsonSchema()
 * ```
 */
export function outputJsonSchema(schema: StandardSchemaV1, target: 'draft-07' | 'draft-2020-12'): Record<string, unknown> | undefined {
  const converter = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (typeof converter?.output !== 'function') return undefined;
  const { $schema: _dialect, ...rest } = converter.output({ target });
  return rest;
}
