import { currentExchange, isThenable, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { mapArguments, variablesOf } from './arguments.ts';
import { exposureOf, type Rendering } from './exposure.ts';
import { handlerParameters, parametersOf } from './parameters.ts';
import { renderNow } from './render.ts';

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
  const lookup = (request ?? currentExchange()?.request)?.lookup;
  return lookup instanceof ExposedCall ? lookup.rendering : undefined;
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
  return new ExposedCall(kernel, controller, fn, remainder, rendering);
}

/**
 * What a dispatch {@link Lookup} will call: the controller (`this`), the handler (the exposed
 * method, or the `when()` handler chosen for the method), and the arguments mapped for the request.
 */
export interface HandlerCall {
  /** The controller the handler is called on. */
  readonly controller: object;
  /** The function called. */
  readonly handler: Function;
  /**
   * The arguments it receives for `request`, mapped from the path and the request's variables on
   * the first call (so call it once the body is loaded: from a `beforeHandle` tap on); the
   * handler is then called with this same list (with `use_context_locals: false`, the request
   * and the response first). Mapping may throw the request's 400.
   */
  argumentsFor(request: Request, response: Response): readonly unknown[];
}

/**
 * The {@link HandlerCall} of a lookup made by dispatch (or by {@link callExposed}), `undefined`
 * for any other lookup (an OPTIONS answer, another routing plugin's).
 *
 * @example
 * ```ts
 * kernel.hooks.beforeHandle.tap('audit', (lookup, request, response) => {
 *   const call = handlerCallOf(lookup);
 *   if (call) log(`${call.controller.constructor.name}.${call.handler.name}`, call.argumentsFor(request, response));
 * });
 * ```
 */
export function handlerCallOf(lookup: Lookup | undefined): HandlerCall | undefined {
  return lookup instanceof ExposedCall ? lookup : undefined;
}

// One object per request and no closure: `handle` is a method, the kernel calls it on the lookup.
class ExposedCall implements Lookup, HandlerCall {
  // `true` asks for the body even on GET, HEAD or OPTIONS (expose({ body: true })).
  readonly loadBody: true | undefined;
  // Mapped once, by `arguments` (a hook looked) or by `handle`.
  private mapped: readonly unknown[] | undefined;
  constructor(
    private readonly kernel: Kernel,
    readonly controller: object,
    readonly target: Function,
    private readonly remainder: readonly string[],
    readonly rendering: Rendering,
  ) {
    this.loadBody = exposureOf(target)?.body ? true : undefined;
  }

  get handler(): Function {
    return this.target;
  }

  argumentsFor(request: Request, response: Response): readonly unknown[] {
    return (this.mapped ??= this.mapFor(request, response));
  }

  private mapFor(request: Request, response: Response): readonly unknown[] {
    const { remainder } = this;
    if (!request.use_context_locals) {
      // use_context_locals: false — the handler receives the request and the response first.
      return [request, response, ...mapArguments(handlerParameters(this.target, request), remainder, () => variablesOf(request))];
    }
    const params = parametersOf(this.target);
    return params.list.length === 0 && remainder.length === 0 ? NO_ARGS : mapArguments(params, remainder, () => variablesOf(request));
  }

  // Calls the method and renders its value: synchronously when the method returns a plain value
  // and the rendering needs no engine, else a promise.
  handle(request: Request, response: Response): unknown {
    // The kernel has set it already, unless another plugin's lookup wraps this one.
    request.lookup = this;
    const { kernel, controller, target: fn, rendering } = this;
    const args = this.mapped ?? this.mapFor(request, response);
    const value: unknown = fn.apply(controller, args as unknown[]);
    if (isThenable(value)) return Promise.resolve(value).then((settled) => renderNow(kernel, rendering, settled, response, controller, fn));
    return renderNow(kernel, rendering, value, response, controller, fn);
  }
}

const NO_ARGS: readonly unknown[] = Object.freeze([]);
