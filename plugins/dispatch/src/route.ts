import { dispatchError } from './errors.ts';
import { exposureOf, exposureRecord } from './exposure.ts';
import { assertSegment, describeValue, isRoutableName } from './names.ts';

const mounts = new WeakMap<object, Map<string, object | Function>>();
// Prototypes whose mounts a route table has already read: a later mount would be ignored.
const read = new WeakSet<object>();

/**
 * Gives an exposed method an explicit segment (`route(segment, fn)`, like `expose({ route })`),
 * or mounts a child controller instance or an exposed method under a segment of a controller
 * class (`route(Class, segment, target)`). Segments are validated; a segment already used by a
 * member or another route of the class is an error.
 *
 * @example
 * ```ts
 * route('best-sellers', expose()(function bestsellers() { return '…'; }));
 * route(RootController, 'some-path', new SomeController());
 * ```
 */
export function route<F extends Function>(segment: string, fn: F): F;
export function route(controllerClass: Function, segment: string, target: object): void;
export function route(first: unknown, second: unknown, third?: unknown): unknown {
  if (typeof first === 'string') {
    if (arguments.length !== 2) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_ARGS', describeValue(first), 'route(segment, fn) takes two arguments');
    assertSegment(first);
    if (typeof second !== 'function') throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_ARGS', describeValue(first), `the second argument must be an exposed function, got ${describeValue(second)}`);
    const exposure = exposureOf(second);
    if (!exposure || exposure.when) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_NOT_EXPOSED', JSON.stringify(first), describeValue(second));
    if (exposure.route !== undefined && exposure.route !== first) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_TWICE', describeValue(second), exposure.route, first);
    exposureRecord(second).route = first;
    return second;
  }
  if (typeof first !== 'function' || typeof prototypeOf(first) !== 'object') {
    throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_ARGS', describeValue(first), 'the first argument is a segment string or a controller class');
  }
  if (arguments.length !== 3) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_ARGS', describeValue(first), 'route(Class, segment, target) takes three arguments');
  assertSegment(second);
  const where = `class ${(first as { name?: string }).name || '(anonymous)'}`;
  if (typeof third === 'function') {
    const exposure = exposureOf(third);
    if (!exposure || exposure.when) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_NOT_EXPOSED', `${where}, ${JSON.stringify(second)}`, describeValue(third));
  } else if (typeof third !== 'object' || third === null || Array.isArray(third)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_ARGS', `${where}, ${JSON.stringify(second)}`, `the target must be a controller instance or an exposed function, got ${describeValue(third)}`);
  }
  const proto = prototypeOf(first) as object;
  if (read.has(proto)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_LATE', where, JSON.stringify(second), where);
  if (memberNames(proto).has(second)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', second, where, `member "${second}"`, 'route()');
  let table = mounts.get(proto);
  if (!table) mounts.set(proto, (table = new Map()));
  if (table.has(second)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', second, where, 'an earlier route()', 'route()');
  table.set(second, third as object);
  return undefined;
}

/**
 * The targets mounted with `route(Class, segment, target)` on exactly this prototype.
 *
 * @example
 * ```ts
 * mountsOf(RootController.prototype)?.get('some-path');
 * ```
 */
export function mountsOf(proto: object): ReadonlyMap<string, object | Function> | undefined {
  read.add(proto);
  return mounts.get(proto);
}

function prototypeOf(fn: Function): unknown {
  return Object.getOwnPropertyDescriptor(fn, 'prototype')?.value;
}

// Own and inherited routable member names of a prototype chain, stopping before Object.prototype.
function memberNames(proto: object): Set<string> {
  const names = new Set<string>();
  for (let p: object | null = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p)) if (isRoutableName(name)) names.add(name);
  }
  return names;
}
