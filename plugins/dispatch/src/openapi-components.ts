type Json = Record<string, unknown>;

/**
 * The schemas of an OpenAPI document's `components.schemas`, each described once and referenced
 * with `$ref` wherever it is used (a body schema offered as JSON, urlencoded and multipart, the
 * same schema on several routes). Names come from the first handler that uses a schema
 * (`Notes.create.body`): routes are listed in the route map's order, so a name stays the same
 * from one run to the next while the app does.
 *
 * @example
 * ```ts
 * const components = new SchemaComponents({ ValidationError: validationErrorSchema() });
 * components.ref({ type: 'object' }, 'Notes.create.body'); // { $ref: '#/components/schemas/Notes.create.body' }
 * ```
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json>;
  private readonly names = new Map<string, string>();

  constructor(fixed: Readonly<Record<string, Json>>) {
    this.schemas = { ...fixed };
  }

  /** A `$ref` to `schema`, added under `name` (made a valid, unused component name) the first time. */
  ref(schema: Json, name: string): Json {
    const text = JSON.stringify(schema);
    let named = this.names.get(text);
    if (named === undefined) {
      // OpenAPI's component names: ^[a-zA-Z0-9.\-_]+$.
      const base = name.replace(/[^A-Za-z0-9._-]/g, '_');
      named = base;
      for (let n = 2; Object.prototype.hasOwnProperty.call(this.schemas, named); n++) named = `${base}_${n}`;
      this.schemas[named] = schema;
      this.names.set(text, named);
    }
    return { $ref: `#/components/schemas/${named}` };
  }
}

/**
 * Whether a JSON Schema describes a file's bytes (`{ type: 'string', format: 'binary' }`, or a
 * `contentMediaType` of its own): a value only a `multipart/form-data` body can carry.
 *
 * @example
 * ```ts
 * isBinary({ type: 'string', format: 'binary' }); // true
 * ```
 */
export function isBinary(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, format, contentMediaType } = schema as Json;
  return type === 'string' && (format === 'binary' || typeof contentMediaType === 'string');
}

/**
 * Whether an object schema has a file among its properties (so its body is multipart only).
 *
 * @example
 * ```ts
 * hasBinaryProperty({ type: 'object', properties: { file: { type: 'string', format: 'binary' } } }); // true
 * ```
 */
export function hasBinaryProperty(schema: unknown): boolean {
  const properties = typeof schema === 'object' && schema !== null ? (schema as Json)['properties'] : undefined;
  return typeof properties === 'object' && properties !== null && Object.values(properties).some(isBinary);
}
