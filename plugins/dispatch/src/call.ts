import { currentExchange, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { mapArguments, variablesOf } from './arguments.ts';
import type { Rendering } from './exposure.ts';
import { controllerName } from './names.ts';
import { parametersOf } from './parameters.ts';
import { renderValue } from './render.ts';

const chosen = new WeakMap<Request, Rendering>();

/**
 * The rendering negotiation chose (by extension or `Accept`) for a request — by default the one
 * being handled — so a method with stacked exposures can shape its value for it; `undefined`
 * outside a handler.
 *
 * @example
 * ```ts
 * @expose() @expose('json') index() {
 *   return renderingFor()?.mediaType === 'application/json' ? books : renderList(books);
 * }
 * ```
 */
export function renderingFor(request?: Request): Rendering | undefined {
  const target = request ?? currentExchange()?.request;
  return target === undefined ? undefined : chosen.get(target);
}

/**
 * A {@link Lookup} that calls `fn` on `controller` (as `this`) with arguments mapped from
 * `remainder` and the request's variables, and renders the result with `rendering`.
 * The building block for routing plugins (REST) that have chosen the method themselves.
 *
 * @example
 * ```ts
 * return callExposed(kernel, controller, controller.get_one, ['7'], renderingsOf(controller.get_one)[0]);
 * ```
 */
export function callExposed(kernel: Kernel, controller: object, fn: Function, remainder: readonly string[], rendering: Rendering): Lookup {
  return {
    target: fn,
    handle: (request: Request, response: Response) => invoke(kernel, controller, fn, remainder, rendering, request, response),
  };
}

async function invoke(
  kernel: Kernel,
  controller: object,
  fn: Function,
  remainder: readonly string[],
  rendering: Rendering,
  request: Request,
  response: Response,
): Promise<unknown> {
  chosen.set(request, rendering);
  const params = parametersOf(fn);
  const args = params.list.length === 0 && remainder.length === 0 ? [] : mapArguments(params, remainder, () => variablesOf(request));
  const value: unknown = await fn.apply(controller, args);
  return renderValue(kernel, rendering, value, response, `${controllerName(controller)}.${fn.name || '(anonymous)'}`);
}
