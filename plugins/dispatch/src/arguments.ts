import { HTTPError, type Request, type Variables } from '@hickory/core';
import { inputObject, NoVariablesInBody } from '@hickory/core/kit';
import { refuseMalformedType } from './body-variables.ts';
import type { ParameterList } from './parameters.ts';

/**
 * Builds the argument list of a call: path segments fill positional parameters in order, then
 * query and body variables fill the rest by name (a path value wins), `...rest` takes the
 * remaining segments, and a parameter named `kwargs` gets the variables no named parameter
 * takes (a null-prototype object). For a wrapper made with `wraps(original, options)`, a supplied
 * parameter's place is `undefined`, and with `kwargs: true` one more argument, last, holds a copy
 * of every variable. Too many segments → 404; a required parameter without a
 * value → 400 naming it.
 *
 * @example
 * ```ts
 * mapArguments(parametersOf(function show(id, format = 'html') {}), ['7'], () => vars); // ['7', vars.format]
 * ```
 */
export function mapArguments(params: ParameterList, remainder: readonly string[], variables: () => Variables): unknown[] {
  if (remainder.length > params.positional && !params.rest) {
    throw new HTTPError(404, 'The resource could not be found.');
  }
  // Without a rest parameter there is one argument per parameter: an exact-size array.
  const args: unknown[] = params.rest ? [] : new Array<unknown>(params.list.length + (params.variablesLast ? 1 : 0));
  let count = 0;
  let next = 0;
  let vars: Variables | undefined;
  for (let i = 0; i < params.list.length; i++) {
    const param = params.list[i]!;
    if (param.supplied === true) {
      // The wrapper passes it (wraps' `supplies`): its place stays empty.
      args[count++] = undefined;
      continue;
    }
    if (param.rest) {
      while (next < remainder.length) args[count++] = remainder[next++];
      break;
    }
    if (param.name === 'kwargs') {
      args[count++] = kwargsOf((vars ??= variables()), params.names);
      continue;
    }
    if (next < remainder.length) {
      args[count++] = remainder[next++];
      continue;
    }
    if (param.name !== null) {
      vars ??= variables();
      if (Object.prototype.hasOwnProperty.call(vars, param.name)) {
        args[count++] = vars[param.name];
        continue;
      }
    }
    if (param.required) {
      const label = param.name === null ? `#${i + 1}` : `"${param.name}"`;
      throw new HTTPError(400, `Missing required parameter ${label}.`);
    }
    args[count++] = undefined;
  }
  // wraps' `kwargs`: every variable, mapped or not, in one object the wrappers may change.
  if (params.variablesLast) args[count++] = copyOf((vars ??= variables()));
  return args;
}

function copyOf(vars: Variables): Variables {
  const out: Variables = inputObject();
  for (const key of Object.keys(vars)) out[key] = vars[key];
  return out;
}

// kwargs has no Object.prototype, yet a template can print it (see inputObject).
function kwargsOf(vars: Variables, named: ReadonlySet<string>): Variables {
  const out: Variables = inputObject();
  for (const key of Object.keys(vars)) if (!named.has(key)) out[key] = vars[key];
  return out;
}

/**
 * The variables of a request: query and body together (a key in both gives an array). A body the
 * kernel cannot read as variables (e.g. `text/plain`) contributes none, and so does a JSON body
 * that is not an object (a JSON-Patch array: the handler reads it from `request.json`, as in
 * Pecan); a `Content-Type` that is no media type is a 400.
 *
 * @example
 * ```ts
 * variablesOf(request).name; // '?name=…' or a form field
 * ```
 */
export function variablesOf(request: Request): Variables {
  try {
    return request.params;
  } catch (error) {
    // A body of a type without variables (text/plain): the query's alone. A broken body still fails.
    if (!(error instanceof NoVariablesInBody)) throw error;
    refuseMalformedType(request);
    return request.GET;
  }
}
