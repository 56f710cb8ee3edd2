import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * The `args` option: parameter name → a Standard Schema (zod, valibot, arktype, …) that parses
 * the mapped value (a string, an array of strings, a file, a JSON value).
 *
 * @example
 * ```ts
 * const showArgs = { id: z.coerce.number().int(), page: z.coerce.number().default(1) } satisfies ArgumentSchemas;
 * ```
 */
export type ArgumentSchemas = Readonly<Record<string, StandardSchemaV1>>;

/**
 * The types the handler receives for `args` schemas: each schema's output type, by parameter name.
 * TypeScript cannot tie a parameter to a schema by name, so annotate the parameter with it.
 *
 * @example
 * ```ts
 * const showArgs = { id: z.coerce.number().int() };
 * class Books {
 *   @expose({ template: 'json', args: showArgs }) show(id: ArgsOf<typeof showArgs>['id']) { return { id }; }
 * }
 * ```
 */
export type ArgsOf<S extends ArgumentSchemas> = { -readonly [K in keyof S]: StandardSchemaV1.InferOutput<S[K]> };

/**
 * The type of the validated body for a `body` schema.
 *
 * @example
 * ```ts
 * const newBook = z.object({ title: z.string(), year: z.coerce.number() });
 * type NewBook = BodyOf<typeof newBook>; // { title: string; year: number }
 * ```
 */
export type BodyOf<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>;

// Every schema's output must be accepted by some parameter of the handler (or, for a rest
// parameter, be an array of what it takes): the check TypeScript can make without parameter
// names. It catches a `string` parameter left behind `z.coerce.number()`. A schema that declares
// no types (output `unknown`) is not checked.
type Output<A extends ArgumentSchemas> = ArgsOf<A>[keyof A];
type Fits<A extends ArgumentSchemas, F extends (...args: any[]) => any> = unknown extends Output<A>
  ? unknown
  : [Output<A>] extends [Parameters<F>[number] | Array<Parameters<F>[number]>]
    ? unknown
    : { 'a schema output fits no parameter of this handler': Output<A> };

/**
 * What `expose({ args })` and `when(name, { args })` return: a {@link MethodMarker} whose handler
 * must accept every schema's output type in some parameter (a compile error otherwise).
 *
 * @example
 * ```ts
 * // error: number (the schema's output) fits no parameter of show(id: string)
 * @expose({ args: { id: z.coerce.number() } }) show(id: string) {}
 * ```
 */
export type SchemaMarker<A extends ArgumentSchemas> = <F extends (...args: any[]) => any>(value: F & Fits<A, F>, context?: ClassMethodDecoratorContext) => F;
