import type { StandardSchemaV1 } from '@standard-schema/spec';
import { declaredBodyNames } from './body-sources.ts';
import { dispatchError } from './errors.ts';
import { exposureOf } from './exposure.ts';
import { controllerName, describeValue } from './names.ts';
import { parametersFor, type Parameter } from './parameters.ts';
import { isStandardSchema } from './standard-schema.ts';

/** A schema bound to one parameter of a handler. */
export interface ArgumentSchema {
  /** The parameter's name (the `args` key). */
  readonly name: string;
  /** Its position among the parameters a request fills (after request and response in explicit mode). */
  readonly index: number;
  /** True for `...rest`: the schema sees the array of remaining segments. */
  readonly rest: boolean;
  /** False when the parameter has a default: a missing value keeps the default, unvalidated. */
  readonly required: boolean;
  readonly schema: StandardSchemaV1;
}

/** The schemas of one handler, checked and bound to its parameters. */
export interface HandlerSchemas {
  /** One entry per `args` key, in parameter order. */
  readonly args: readonly ArgumentSchema[];
  /** The schema of the parsed body, if any. */
  readonly body: StandardSchemaV1 | undefined;
  /** The names the body schema declares (its JSON Schema's properties): filled from the body only. */
  readonly bodyNames: ReadonlySet<string>;
}

const caches = { implicit: new WeakMap<Function, HandlerSchemas | null>(), explicit: new WeakMap<Function, HandlerSchemas | null>() };

/**
 * The checked schemas of a handler, or `undefined` when it declares none; read once per function
 * (and per `use_context_locals` mode, which shifts the parameters). A value that is not a Standard
 * Schema, or an `args` key that names no parameter, throws a coded error naming `Class.method` —
 * at `ready()` for the tree it can reach, else on the first request that routes there.
 *
 * @example
 * ```ts
 * handlerSchemas(Books.prototype.show, false, books)?.args; // [{ name: 'id', index: 0, schema, … }]
 * ```
 */
export function handlerSchemas(fn: Function, explicit: boolean, controller: object): HandlerSchemas | undefined {
  const cache = explicit ? caches.explicit : caches.implicit;
  let known = cache.get(fn);
  if (known === undefined) cache.set(fn, (known = compile(fn, explicit, controller)));
  return known ?? undefined;
}

function compile(fn: Function, explicit: boolean, controller: object): HandlerSchemas | null {
  const exposure = exposureOf(fn);
  const declared = exposure?.args;
  const body = exposure?.bodySchema;
  if (declared === undefined && body === undefined) return null;
  const where = `${controllerName(controller)}.${fn.name || '(anonymous)'}`;
  if (body !== undefined && !isStandardSchema(body)) throw dispatchError('HICKORY_ERR_DISPATCH_NOT_A_SCHEMA', where, 'body', describeValue(body));
  const params = parametersFor(fn, explicit).list;
  const args: ArgumentSchema[] = [];
  for (const name of Object.keys(declared ?? {})) {
    const schema = declared![name];
    if (!isStandardSchema(schema)) throw dispatchError('HICKORY_ERR_DISPATCH_NOT_A_SCHEMA', where, `args.${name}`, describeValue(schema));
    const index = params.findIndex((p) => p.name === name);
    if (index < 0) throw dispatchError('HICKORY_ERR_DISPATCH_ARGS_UNKNOWN', where, name, listNames(params, explicit));
    args.push({ name, index, rest: params[index]!.rest, required: params[index]!.required, schema });
  }
  args.sort((a, b) => a.index - b.index);
  return { args, body, bodyNames: body === undefined ? new Set() : declaredBodyNames(body) };
}

function listNames(params: readonly Parameter[], explicit: boolean): string {
  const names = params.map((p) => p.name).filter((n): n is string => n !== null);
  const shown = names.length > 0 ? names.join(', ') : 'none';
  return explicit ? `${shown}; with use_context_locals: false the first two receive the request and the response` : shown;
}
