import { shareExposure } from './exposure.ts';
import { isControllerMethod, markControllerMethod } from './class-methods.ts';
import { parametersOf } from './parameters.ts';
import { isMarkedWrapper, markWrapped } from './wrapped.ts';

/**
 * For decorators that wrap a handler (as Python's `functools.wraps`): `wraps(original)(wrapper)`
 * marks `wrapper` as standing for `original`, so argument mapping reads the original's
 * parameters (a `(...args)` wrapper would otherwise take every path segment and no variable),
 * the wrapper carries the original's name and exposure, and it is typed as the original (a
 * decorated method keeps its type).
 *
 * @example
 * ```ts
 * function audited<This, Args extends unknown[], R>(method: (this: This, ...args: Args) => R) {
 *   return wraps(method)(function (this: This, ...args: Args): R {
 *     log(method.name);
 *     return method.apply(this, args);
 *   });
 * }
 * class Books { @expose('json') @audited show(id: string) { return { id }; } }
 * ```
 */
export function wraps<This, Args extends unknown[], R>(
  original: (this: This, ...args: Args) => R,
): (wrapper: (this: This, ...args: Args) => R) => (this: This, ...args: Args) => R {
  return (wrapper) => {
    markWrapped(wrapper, original);
    Object.defineProperty(wrapper, 'name', { value: original.name, configurable: true });
    shareExposure(original, wrapper);
    // A wrapper that replaces a method is that method, for whose it is (see routed-owner.ts).
    if (isControllerMethod(original)) markControllerMethod(wrapper);
    return wrapper;
  };
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
