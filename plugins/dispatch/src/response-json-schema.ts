/**
 * The JSON Schema a response serializer is compiled from: the converter's output with every
 * `additionalProperties: false` taken out (a copy; the input is left as it is).
 *
 * Why: fast-json-stringify writes only the declared properties of an object whatever
 * `additionalProperties` says when it is absent or false, but where the schema has alternatives
 * (`anyOf`/`oneOf`: a `.nullable()`, a union; `if`/`then`) it picks the branch by validating the
 * value with ajv — and a value with a property more than declared then matches no branch, so the
 * serializer threw (a 500) where a plain object schema strips it. Without the flag, the branch is
 * the first whose declared properties the value satisfies (as zod's and valibot's unions pick the
 * first option that parses), and the extra property is left out as for a plain object. A schema that
 * refuses extra properties on purpose (`z.strictObject`) still does: the value is checked against
 * the schema itself outside production.
 *
 * @example
 * ```ts
 * serializableSchema({ anyOf: [{ type: 'object', properties: { id: { type: 'number' } }, additionalProperties: false }, { type: 'null' }] });
 * // { anyOf: [{ type: 'object', properties: { id: { type: 'number' } } }, { type: 'null' }] }
 * ```
 */
export function serializableSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return withoutClosedObjects(schema) as Record<string, unknown>;
}

// Walks every keyword's value (properties, items, anyOf, definitions, …): a `false` under the key
// `additionalProperties` is a keyword there, while a property *named* additionalProperties is a
// schema object, never `false`, so it is kept.
function withoutClosedObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutClosedObjects);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = withoutClosedObjects(value);
  }
  return copy;
}
