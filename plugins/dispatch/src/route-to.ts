import { dispatchError } from './errors.ts';
import { exposureOf } from './exposure.ts';
import { describeValue } from './names.ts';
import { isController } from './controller-tables.ts';

/** The names of the methods of `T` (what {@link routeTo} accepts). */
export type MethodName<T> = { [P in keyof T]-?: T[P] extends (...args: never[]) => unknown ? P : never }[keyof T] & string;

/**
 * An exposed method together with the controller it belongs to, as a `_route` returns it with
 * {@link routeTo} (a Python bound method: JavaScript's `obj.method` forgets `obj`). Its fields are
 * private, so routing never mistakes it for a controller, and no other object can pass for one.
 */
class RoutedMethod {
  readonly #owner: object;
  readonly #fn: Function;

  constructor(owner: object, fn: Function) {
    this.#owner = owner;
    this.#fn = fn;
  }

  /** The controller the method runs on (`this`), whose checks apply. */
  get owner(): object {
    return this.#owner;
  }

  /** The exposed method. */
  get fn(): Function {
    return this.#fn;
  }

  static is(value: unknown): value is RoutedMethod {
    return typeof value === 'object' && value !== null && #owner in value;
  }
}

export type { RoutedMethod };

/**
 * True for what {@link routeTo} made; internal to this package.
 *
 * @example
 * ```ts
 * isRoutedMethod(routeTo(reports, 'index')); // true
 * ```
 */
export function isRoutedMethod(value: unknown): value is RoutedMethod {
  return RoutedMethod.is(value);
}

/**
 * What a `_route` returns to hand the request to a method of another controller, saying which
 * controller it belongs to: the method runs on `owner` (`this` is `owner`) behind `owner`'s checks
 * — its class's `check_permissions`, a `secure(owner, …)` on it, the method's own `@secure` — and,
 * when `owner` is under the routing controller, those of the controllers between, as if the path
 * had named them. Needed for a controller held anywhere else (a module-level instance); a
 * method of a controller under the routing one may also be returned as it is
 * (`[this.reports.index, rest]`) when no other controller under it has that method.
 *
 * @example
 * ```ts
 * const archive = new ArchiveController();
 * class Root {
 *   _route(remainder: string[]) {
 *     if (remainder[0] === 'old') return [routeTo(archive, 'index'), remainder.slice(1)];
 *     return undefined;
 *   }
 * }
 * ```
 */
export function routeTo<T extends object>(owner: T, name: MethodName<T>): RoutedMethod {
  if (!isController(owner)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_TO', describeValue(owner), describeValue(name), 'the owner is not a controller object');
  const fn = methodOf(owner, name);
  if (fn === undefined || exposureOf(fn) === undefined) {
    throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_TO', describeValue(owner), describeValue(name), fn === undefined ? 'it has no method of that name' : 'that method is not exposed');
  }
  return new RoutedMethod(owner, fn);
}

// Through descriptors, the owner's own first, then its class chain: no getter runs.
function methodOf(owner: object, name: unknown): Function | undefined {
  if (typeof name !== 'string') return undefined;
  for (let o: object | null = owner; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(o, name);
    if (descriptor !== undefined) return typeof descriptor.value === 'function' ? descriptor.value : undefined;
  }
  return undefined;
}
