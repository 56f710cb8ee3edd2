import { shareExposure } from './exposure.ts';
import { isControllerMethod, markControllerMethod } from './class-methods.ts';
import { parametersFor, parametersOf } from './parameters.ts';
import type { Request, Variables } from '@hickory/core';
import { dispatchError } from './errors.ts';
import { isMarkedWrapper, markWrapped, type WrapPlan } from './wrapped.ts';

/**
 * What a wrapper made with {@link wraps} does besides calling the original: `supplies` names the
 * original's parameters it passes itself (they are not mapped from the request: their places are
 * `undefined` when it is called); `inserts` is how many leading arguments of its own it passes
 * (it is called without them); `kwargs: true` asks for every request variable, last (Pecan's outer
 * `**kwargs`).
 */
export interface WrapsOptions {
  readonly supplies?: readonly string[];
  readonly inserts?: number;
  readonly kwargs?: true;
}

/** `T` without its first `N` elements (`N` a literal; any other number drops none). */
type Drop<T extends unknown[], N extends number, Dropped extends unknown[] = []> = number extends N
  ? T
  : Dropped['length'] extends N
    ? T
    : T extends [unknown?, ...infer Rest]
      ? Drop<Rest, N, [...Dropped, unknown]>
      : T;

/**
 * The arguments a wrapper made with `wraps(original, options)` is called with: the original's
 * after the inserted ones, then (with `kwargs: true`) the request's variables.
 */
export type WrapperArgs<Args extends unknown[], O extends WrapsOptions> = O extends { readonly kwargs: true }
  ? [...Drop<Args, O extends { readonly inserts: infer N extends number } ? N : 0>, Variables]
  : Drop<Args, O extends { readonly inserts: infer N extends number } ? N : 0>;

/**
 * For decorators that wrap a handler (as Python's `functools.wraps`): `wraps(original)(wrapper)`
 * marks `wrapper` as standing for `original`, so argument mapping reads the original's
 * parameters (a `(...args)` wrapper would otherwise take every path segment and no variable),
 * the wrapper carries the original's name and exposure, and it is typed as the original (a
 * decorated method keeps its type).
 *
 * With `options` (see {@link WrapsOptions}) the wrapper may supply, insert or collect arguments,
 * as OpenStack's decorators do. It is called with one argument per parameter of the original, in
 * order (a supplied parameter's place `undefined`, the inserted ones left out), and with
 * `kwargs: true` one more, last: an object (inheriting nothing from `Object.prototype`) of every request variable (query, form,
 * JSON object body; mapped or not). In a stack of wrappers the options add up (the supplied names
 * of all, the sum of the inserts, `kwargs` if any asks), and each passes that same object down as
 * its inner function's last argument.
 *
 * @example
 * ```ts
 * // Ironic's @method.body('chassis'): the JSON body is the parameter `chassis`.
 * function body(name: string) {
 *   return <This, A extends unknown[], R>(fn: (this: This, ...args: A) => R) =>
 *     wraps(fn, { supplies: [name], kwargs: true })(function (this: This, ...args) {
 *       const index = parameterIndex(fn, name);
 *       (args as unknown[])[index] = request.json;
 *       return fn.apply(this, args as unknown as A);
 *     });
 * }
 * ```
 */
export function wraps<This, Args extends unknown[], R>(
  original: (this: This, ...args: Args) => R,
): (wrapper: (this: This, ...args: Args) => R) => (this: This, ...args: Args) => R;
export function wraps<This, Args extends unknown[], R, const O extends WrapsOptions>(
  original: (this: This, ...args: Args) => R,
  options: O,
): (wrapper: (this: This, ...args: WrapperArgs<Args, O>) => R) => (this: This, ...args: Args) => R;
export function wraps(original: (...args: any[]) => unknown, options?: WrapsOptions): (wrapper: any) => any {
  const plan = options === undefined ? undefined : planOf(original, options);
  return (wrapper: Function) => {
    markWrapped(wrapper, original, plan);
    Object.defineProperty(wrapper, 'name', { value: original.name, configurable: true });
    shareExposure(original, wrapper);
    // A wrapper that replaces a method is that method, for whose it is (see routed-owner.ts).
    if (isControllerMethod(original)) markControllerMethod(wrapper);
    return wrapper;
  };
}

/**
 * The index, in the arguments a wrapper receives, of the original's parameter `name` (for a
 * `supplies` wrapper filling its place); -1 when the original declares no such parameter. With
 * `use_context_locals: false`, pass the request the wrapper received first: the index then counts
 * the request and the response before the parameter.
 *
 * @example
 * ```ts
 * parameterIndex(Chassis.prototype.patch, 'patch'); // 1 for patch(chassis_uuid, patch)
 * ```
 */
export function parameterIndex(fn: Function, name: string, request?: Request): number {
  const explicit = request !== undefined && !request.use_context_locals;
  const index = parametersFor(fn, explicit).list.findIndex((p) => p.name === name);
  return index < 0 || !explicit ? index : index + 2;
}

// Options are checked where the decorator is applied (class definition time), with a coded error.
function planOf(original: Function, options: WrapsOptions): WrapPlan {
  const { supplies = [], inserts = 0, kwargs } = options;
  const where = original.name || '(anonymous)';
  if (!Array.isArray(supplies) || supplies.some((s) => typeof s !== 'string' || s === '')) {
    throw dispatchError('HICKORY_ERR_DISPATCH_WRAPS_OPTIONS', where, 'supplies', 'a list of parameter names');
  }
  if (!Number.isInteger(inserts) || inserts < 0) throw dispatchError('HICKORY_ERR_DISPATCH_WRAPS_OPTIONS', where, 'inserts', 'a whole number, 0 or more');
  if (kwargs !== undefined && kwargs !== true) throw dispatchError('HICKORY_ERR_DISPATCH_WRAPS_OPTIONS', where, 'kwargs', 'true or left out');
  const declared = parametersOf(original).list;
  for (const name of supplies) {
    if (!declared.some((p) => p.name === name)) {
      throw dispatchError('HICKORY_ERR_DISPATCH_WRAPS_OPTIONS', where, 'supplies', `names of its parameters (it declares none named "${name}")`);
    }
  }
  return { supplies: new Set(supplies), inserts, kwargs: kwargs === true };
}

/**
 * The member name of `fn` on `controller` when `fn` looks like a wrapper made without
 * {@link wraps}: it takes only `(...args)` and is not named after the member that holds it (a
 * decorator's replacement). `undefined` otherwise; read at `ready()`.
 *
 * @example
 * ```ts
 * unmarkedWrapperName(root, Root.prototype.show); // 'show' for a decorator's (...args) wrapper
 * ```
 */
export function unmarkedWrapperName(controller: object, fn: Function): string | undefined {
  if (isMarkedWrapper(fn)) return undefined;
  const { list } = parametersOf(fn);
  if (list.length !== 1 || !list[0]!.rest) return undefined;
  const member = memberNameOf(controller, fn);
  return member !== undefined && fn.name !== member ? member : undefined;
}

// Through descriptors only: no getter runs.
function memberNameOf(controller: object, fn: Function): string | undefined {
  for (let o: object | null = controller; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (Object.getOwnPropertyDescriptor(o, name)?.value === fn) return name;
    }
  }
  return undefined;
}
