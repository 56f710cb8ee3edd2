import type { Kernel, Lookup, Request, Response } from '@hickory/core';
import { currentExchange, isThenable } from '@hickory/core/kit';
import { mapArguments, variablesOf } from './arguments.ts';
import { dispatchError } from './errors.ts';
import { checkExplicitHandler } from './explicit-handler.ts';
import type { Rendering } from './exposure.ts';
import { parametersFrom, type HandlerFacts } from './handler-facts.ts';
import { handlerSchemas } from './handler-schemas.ts';
import { controllerName } from './names.ts';
import { handlerParameters } from './parameters.ts';
import { renderValue } from './render.ts';
import { validatedArguments } from './validate-call.ts';

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
  return lookup instanceof ExposedCall ? (lookup.overridden ?? lookup.rendering) : undefined;
}

/**
 * Makes the handler being called for `request` render its value with `rendering` instead of the
 * negotiated one (what `override_template` does); false when `request` is not in a dispatch handler.
 *
 * @example
 * ```ts
 * overrideRendering(request, renderingFrom('page.ejs', undefined, "'page.ejs'"));
 * ```
 */
export function overrideRendering(request: Request, rendering: Rendering): boolean {
  const lookup = request.lookup;
  if (!(lookup instanceof ExposedCall)) return false;
  lookup.overridden = rendering;
  return true;
}

/**
 * The call stage: a {@link Lookup} that calls the handler the select stage chose (`handler.fn`) on
 * `controller` (as `this`) with arguments mapped from `remainder` and the request's variables, and
 * renders the result with `rendering`. What it needs from the registries comes with the handler
 * (`handler.facts`): none is read again.
 *
 * @example
 * ```ts
 * const lookup = callSelected(kernel, found.controller, selectHandler(found, 'GET'), remainder, rendering);
 * ```
 */
export function callSelected(kernel: Kernel, controller: object, handler: { readonly fn: Function; readonly facts: HandlerFacts }, remainder: readonly string[], rendering: Rendering): Lookup {
  return new ExposedCall(kernel, controller, handler.fn, remainder, rendering, handler.facts);
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
   * Maps the arguments for `request` and validates them against the handler's schemas (`args`,
   * `body`); call it once the body is loaded (from a `beforeHandle` tap on). Returns a promise
   * only when a schema validates asynchronously. May throw (or reject with) the request's 400.
   */
  prepare(request: Request, response: Response): Promise<void> | undefined;
  /**
   * The arguments it receives for `request`: mapped (and validated) on the first call, and the
   * handler is then called with this same list (with `use_context_locals: false`, the request and
   * the response first). Mapping may throw the request's 400. When the handler's schemas validate
   * asynchronously, await {@link HandlerCall.prepare} first (else this throws).
   */
  argumentsFor(request: Request, response: Response): readonly unknown[];
}

/**
 * The {@link HandlerCall} of a lookup made by dispatch (see {@link callSelected}), `undefined`
 * for any other lookup (an OPTIONS answer, another routing plugin's).
 *
 * @example
 * ```ts
 * kernel.hooks.beforeHandle.tap('audit', (lookup, request, response) => {
 *   const call = handlerCallOf(lookup);
 *   if (call) {
 *     await call.prepare(request, response);
 *     log(`${call.controller.constructor.name}.${call.handler.name}`, call.argumentsFor(request, response));
 *   }
 * });
 * ```
 */
export function handlerCallOf(lookup: Lookup | undefined): HandlerCall | undefined {
  return lookup instanceof ExposedCall ? lookup : undefined;
}

// One object per request and no closure: `handle` is a method, the kernel calls it on the lookup.
class ExposedCall implements Lookup, HandlerCall {
  // `true` asks for the body even on GET, HEAD or OPTIONS (expose({ body: true }) or a body schema).
  readonly loadBody: true | undefined;
  // Whether the handler declares schemas (read here, so that a handler without any pays nothing more).
  private readonly validates: boolean;
  // The success status it declares (`expose({ status: 201 })`).
  private readonly status: number | undefined;
  // Mapped (and validated) once, by `prepare` (a hook looked, or `handle`).
  private mapped: readonly unknown[] | undefined;
  // An asynchronous validation under way.
  private preparing: Promise<void> | undefined;
  // What `override_template` chose while the handler ran.
  overridden: Rendering | undefined = undefined;
  constructor(
    private readonly kernel: Kernel,
    readonly controller: object,
    readonly target: Function,
    private readonly remainder: readonly string[],
    readonly rendering: Rendering,
    private readonly facts: HandlerFacts,
  ) {
    const exposure = facts.exposure;
    this.loadBody = exposure?.body ? true : undefined;
    this.validates = exposure !== undefined && (exposure.args !== undefined || exposure.bodySchema !== undefined);
    this.status = exposure?.status;
  }

  get handler(): Function {
    return this.target;
  }

  // An error of this request takes the chosen rendering's kind when the client has no preference.
  get mediaType(): string {
    return this.rendering.mediaType;
  }

  prepare(request: Request, response: Response): Promise<void> | undefined {
    if (this.mapped !== undefined) return undefined;
    if (this.preparing !== undefined) return this.preparing;
    if (!this.validates) {
      this.mapped = this.mapFor(request, response);
      return undefined;
    }
    const schemas = handlerSchemas(this.target, !request.use_context_locals, this.controller)!;
    const args = validatedArguments(schemas, handlerParameters(this.target, request), this.remainder, request);
    if (isThenable(args)) {
      return (this.preparing = Promise.resolve(args).then((settled) => {
        this.mapped = withExchange(settled, request, response);
      }));
    }
    this.mapped = withExchange(args, request, response);
    return undefined;
  }

  argumentsFor(request: Request, response: Response): readonly unknown[] {
    if (this.mapped !== undefined) return this.mapped;
    const pending = this.prepare(request, response);
    if (pending !== undefined) {
      // Its outcome reaches the caller through `prepare` or `handle`, not as an unhandled rejection.
      pending.catch(ignore);
      throw dispatchError('HICKORY_ERR_DISPATCH_ARGS_PENDING', `${controllerName(this.controller)}.${this.target.name}`);
    }
    return this.mapped!;
  }

  private mapFor(request: Request, response: Response): readonly unknown[] {
    const { remainder } = this;
    if (!request.use_context_locals) {
      // use_context_locals: false — the handler receives the request and the response first.
      checkExplicitHandler(this.target, controllerName(this.controller));
      return [request, response, ...mapArguments(handlerParameters(this.target, request), remainder, () => variablesOf(request))];
    }
    const params = parametersFrom(this.facts, this.target);
    return params.list.length === 0 && remainder.length === 0 && !params.variablesLast ? NO_ARGS : mapArguments(params, remainder, () => variablesOf(request));
  }

  // Calls the method and renders its value: synchronously when the arguments need no asynchronous
  // validation, the method returns a plain value and the rendering needs no engine; else a promise.
  handle(request: Request, response: Response): unknown {
    // The kernel has set it already, unless another plugin's lookup wraps this one.
    request.lookup = this;
    const pending = this.prepare(request, response);
    if (pending !== undefined) return pending.then(() => this.call(response));
    return this.call(response);
  }

  private call(response: Response): unknown {
    const { kernel, controller, target: fn, facts } = this;
    // Set before the call: the handler may still choose another status itself.
    if (this.status !== undefined) response.status = this.status;
    const value: unknown = fn.apply(controller, this.mapped as unknown[]);
    // The rendering is read once the value is there: the handler may have overridden it meanwhile.
    if (isThenable(value)) return Promise.resolve(value).then((settled) => renderValue(kernel, this.overridden ?? this.rendering, settled, response, controller, fn, facts));
    return renderValue(kernel, this.overridden ?? this.rendering, value, response, controller, fn, facts);
  }
}

// use_context_locals: false — the handler receives the request and the response first.
function withExchange(args: unknown[], request: Request, response: Response): readonly unknown[] {
  return request.use_context_locals ? args : [request, response, ...args];
}

function ignore(): void {}

const NO_ARGS: readonly unknown[] = Object.freeze([]);
