import type { StandardSchemaV1 } from '@standard-schema/spec';
import { loadOnce } from '@hickory/core/kit';
import { dispatchError } from './errors.ts';
import { exposureOf, type Rendering } from './exposure.ts';
import { controllerName, describeValue } from './names.ts';
import { isStandardSchema, outputJsonSchema } from './standard-schema.ts';
import { serializableSchema } from './response-json-schema.ts';

/** Writes a value as the JSON its schema describes (what fast-json-stringify compiles). */
type Serialize = (value: unknown) => string;
type Compile = (schema: Record<string, unknown>) => Serialize;

/** A handler's compiled response schema. */
export interface ResponseSerializer {
  /** The Standard Schema the value is checked with outside production. */
  readonly schema: StandardSchemaV1;
  /** The JSON rendering it serves; the method's other renderings ignore it. */
  readonly rendering: Rendering;
  /** The compiled serializer: properties the schema does not declare are left out. */
  readonly serialize: Serialize;
}

// fast-json-stringify (and the ajv it brings) is loaded only when some method declares a response
// schema: an app without one never imports it.
const loadCompiler = loadOnce(async (): Promise<Compile> => (await import('fast-json-stringify')).default as Compile);
let compile: Compile | undefined;

/**
 * Loads the serializer compiler (once per process); `ready()` awaits it when a response schema
 * was declared, so that serializers compile synchronously from then on.
 *
 * @example
 * ```ts
 * if (declaredResponseCount() > 0) await loadResponseCompiler();
 * ```
 */
export async function loadResponseCompiler(): Promise<void> {
  compile ??= await loadCompiler();
}

// `null`: the method declares no response schema.
const compiled = new WeakMap<Function, ResponseSerializer | null>();

/**
 * The compiled response schema of `fn`, or `undefined` when it declares none: converted to JSON
 * Schema (draft-07) by the schema library's own converter and compiled once per method; properties
 * the schema does not declare are left out, in every branch of a `.nullable()` or a union too
 * (`serializableSchema`). A value that is not a Standard Schema, a library without a converter, or
 * a schema the converter or the compiler refuses throws a coded error naming `Class.method` — at `ready()` for the tree it reaches,
 * else on the first request that renders it (a promise then, when the compiler was not loaded yet).
 *
 * @example
 * ```ts
 * responseSerializer(Root.prototype.hello, root)?.serialize({ hello: 'world', extra: 1 }); // '{"hello":"world"}'
 * ```
 */
export function responseSerializer(fn: Function, controller: object | undefined): ResponseSerializer | undefined | Promise<ResponseSerializer | undefined> {
  const known = compiled.get(fn);
  if (known !== undefined) return known ?? undefined;
  if (compile === undefined && exposureOf(fn)?.response !== undefined) return loadResponseCompiler().then(() => responseSerializer(fn, controller));
  const made = compileFor(fn, `${controller === undefined ? '' : controllerName(controller)}.${fn.name || '(anonymous)'}`);
  compiled.set(fn, made);
  return made ?? undefined;
}

function compileFor(fn: Function, where: string): ResponseSerializer | null {
  const declaration = exposureOf(fn)?.response;
  if (declaration === undefined) return null;
  const { schema, rendering } = declaration;
  if (!isStandardSchema(schema)) throw dispatchError('HICKORY_ERR_DISPATCH_NOT_A_SCHEMA', where, 'response', describeValue(schema));
  let jsonSchema: Record<string, unknown> | undefined;
  try {
    jsonSchema = outputJsonSchema(schema, 'draft-07');
  } catch (error) {
    throw dispatchError('HICKORY_ERR_DISPATCH_RESPONSE_SCHEMA', where, `its library cannot express it as JSON Schema (${messageOf(error)})`);
  }
  if (jsonSchema === undefined) throw dispatchError('HICKORY_ERR_DISPATCH_RESPONSE_CONVERTER', where, schema['~standard'].vendor);
  try {
    return Object.freeze({ schema, rendering, serialize: compile!(serializableSchema(jsonSchema)) });
  } catch (error) {
    throw dispatchError('HICKORY_ERR_DISPATCH_RESPONSE_SCHEMA', where, `the serializer cannot be compiled from its JSON Schema (${messageOf(error)})`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
