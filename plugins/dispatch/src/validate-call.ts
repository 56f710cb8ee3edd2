import type { Request, Variables } from '@hickory/core';
import { inputObject, isThenable } from '@hickory/core/kit';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { mapArguments, variablesOf } from './arguments.ts';
import { fillsParameter, refuseSegmentsOnBody } from './body-sources.ts';
import type { ArgumentSchema, HandlerSchemas } from './handler-schemas.ts';
import { InvalidInput } from './invalid-input.ts';
import { plainIssues, type PlainIssue } from './issues.ts';
import type { ParameterList } from './parameters.ts';

/**
 * Maps and validates the arguments of a handler that declares schemas: the body schema first
 * (its output's properties then fill named parameters, before query variables), then argument
 * mapping as usual, then each `args` schema on its parameter's value, whose output replaces it.
 * A parameter the body schema fills (it declares the name, or its output has it) takes its value
 * from the validated body alone: never from the query, and a path segment that would land on it
 * is the route's 404. A parameter with a default and no value keeps its default unvalidated.
 * Synchronous unless a schema answers with a promise. Rejections are an {@link InvalidInput} (400)
 * naming the input.
 *
 * @example
 * ```ts
 * const args = validatedArguments(schemas, parametersOf(fn), ['7'], request); // [7] for args: { id: z.coerce.number() }
 * ```
 */
export function validatedArguments(
  schemas: HandlerSchemas,
  params: ParameterList,
  remainder: readonly string[],
  request: Request,
): unknown[] | Promise<unknown[]> {
  const { body, bodyNames } = schemas;
  if (body === undefined) return checkArguments(schemas.args, mapArguments(params, remainder, () => variablesOf(request)), params.variablesLast);
  // What the schema declares is known before the body is read: such a path never fits.
  if (bodyNames.size > 0) refuseSegmentsOnBody(params, remainder, (name) => bodyNames.has(name));
  return after(body['~standard'].validate(bodyValue(request)), (result) => {
    if (result.issues) throw invalid('Invalid request body', plainIssues(result.issues, []));
    const output = result.value;
    refuseSegmentsOnBody(params, remainder, (name) => fillsParameter(bodyNames, output, name));
    return checkArguments(schemas.args, mapArguments(params, remainder, () => withBody(request.GET, output, bodyNames)), params.variablesLast);
  });
}

// `variablesLast`: the last argument is a wrapper's variables object (wraps' `kwargs`), no parameter's.
function checkArguments(declared: readonly ArgumentSchema[], args: unknown[], variablesLast: boolean): unknown[] | Promise<unknown[]> {
  if (declared.length === 0) return args;
  const end = variablesLast ? args.length - 1 : args.length;
  const results: Array<StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>> | undefined> = [];
  let pending = false;
  for (const arg of declared) {
    const value = arg.rest ? args.slice(arg.index, end) : args[arg.index];
    // No value for a parameter with a default: the default applies, as without a schema.
    const result = value === undefined && !arg.required ? undefined : arg.schema['~standard'].validate(value);
    if (isThenable(result)) pending = true;
    results.push(result);
  }
  if (pending) return Promise.all(results).then((settled) => applyResults(declared, args, settled, end));
  return applyResults(declared, args, results as Array<StandardSchemaV1.Result<unknown> | undefined>, end);
}

function applyResults(declared: readonly ArgumentSchema[], args: unknown[], results: ReadonlyArray<StandardSchemaV1.Result<unknown> | undefined>, end: number): unknown[] {
  const issues: PlainIssue[] = [];
  const failed: string[] = [];
  for (let i = 0; i < declared.length; i++) {
    const result = results[i];
    if (result === undefined) continue;
    const arg = declared[i]!;
    if (result.issues) {
      failed.push(arg.name);
      issues.push(...plainIssues(result.issues, [arg.name]));
    } else if (arg.rest) {
      // The rest parameter spreads the output again (an array, unless the schema made it one value).
      args.splice(arg.index, end - arg.index, ...(Array.isArray(result.value) ? result.value : [result.value]));
    } else {
      args[arg.index] = result.value;
    }
  }
  if (issues.length > 0) throw invalid(`Invalid ${failed.length === 1 ? 'argument' : 'arguments'} ${failed.map((n) => `"${n}"`).join(', ')}`, issues);
  return args;
}

// The description names what failed and quotes the first issue; the issues list has them all.
function invalid(what: string, issues: PlainIssue[]): InvalidInput {
  const first = issues[0];
  const at = first && first.path.length > 0 ? ` (at ${first.path.join('.')})` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new InvalidInput(`${what}: ${first?.message ?? 'rejected'}${at}${more}.`, issues);
}

// The parsed body: a JSON value, or the variables of a form (urlencoded or multipart); `undefined`
// when the request has none, so that the schema decides whether a body is required.
function bodyValue(request: Request): unknown {
  const type = request.media_type;
  if (type === 'application/json' || type.endsWith('+json')) return request.json;
  if (type === '' && request.body.length === 0) return undefined;
  return request.POST;
}

// Query variables, then the validated body's own properties over them (the body's are typed; a
// query value of the same name is not mixed into an array with it). A name the schema declares is
// never taken from the query, even when the body left it out. The result inherits nothing, so a
// `__proto__` key is an ordinary variable.
function withBody(query: Variables, body: unknown, declared: ReadonlySet<string>): Variables {
  const vars = inputObject();
  for (const key of Object.keys(query)) if (!declared.has(key)) vars[key] = query[key];
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) for (const key of Object.keys(body)) vars[key] = (body as Record<string, unknown>)[key];
  return vars as Variables;
}

function after<T, U>(value: T | Promise<T>, next: (settled: T) => U | Promise<U>): U | Promise<U> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value as T);
}
