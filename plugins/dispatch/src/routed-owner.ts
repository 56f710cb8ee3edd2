import { dispatchError } from './errors.ts';
import { describeValue } from './names.ts';
import type { RouteTable } from './route-table.ts';

/**
 * The child that a function returned by `_route` belongs to: `_route` may hand over another
 * controller's method (`return [this.admin.index, rest]`, as a Pecan `_route` returns a bound
 * method), and that method must run on its own controller, behind that controller's checks. The
 * routing controller's own methods (anywhere in its class chain) stay its own: `undefined`. So does
 * a function that no child holds (a shared handler such as REST's automatic OPTIONS answer).
 * Remembered per route table.
 *
 * @example
 * ```ts
 * routedOwner(delegate, routeTableOf(delegate)!, delegate.secret.index); // { controller: delegate.secret, table: … }
 * ```
 */
export function routedOwner(controller: object, table: RouteTable, fn: Function): Owner | undefined {
  let known = owners.get(table);
  if (known === undefined) owners.set(table, (known = new Map()));
  let found = known.get(fn);
  if (found === undefined) known.set(fn, (found = findOwner(controller, table, fn)));
  if (typeof found === 'string') {
    throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_RESULT', table.owner, `${describeValue(fn)}, a method that several of its children share (${found}), so not which one's: return that child itself, [this.child, remainder]`);
  }
  return found ?? undefined;
}

interface Owner {
  readonly controller: object;
  readonly table: RouteTable;
}

// Per table and function: the owning child, null for none (the controller's own, or a shared
// handler), or the names of the children that share it (which one is meant cannot be told).
const owners = new WeakMap<RouteTable, Map<Function, Owner | null | string>>();

function findOwner(controller: object, table: RouteTable, fn: Function): Owner | null | string {
  if (methodsOf(controller).has(fn)) return null;
  let found: Owner | undefined;
  let shared = false;
  const names: string[] = [];
  for (const [, entry] of table.entries()) {
    if (entry.kind !== 'child' || !methodsOf(entry.value).has(fn)) continue;
    const child = entry.table();
    if (child === null) continue;
    names.push(entry.name);
    // One child under two names is still one controller.
    if (found === undefined) found = { controller: entry.value, table: child };
    else if (found.controller !== entry.value) shared = true;
  }
  if (found === undefined) return null;
  return shared ? names.join(', ') : found;
}

// Every function along an object's class chain (read through descriptors: no getter runs), per prototype.
function methodsOf(target: object): Set<Function> {
  const proto = Object.getPrototypeOf(target) as object | null;
  if (proto === null) return new Set();
  let found = methodSets.get(proto);
  if (found !== undefined) return found;
  found = new Set();
  for (let p: object | null = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) {
      const value: unknown = Object.getOwnPropertyDescriptor(p, name)?.value;
      if (typeof value === 'function') found.add(value);
    }
  }
  methodSets.set(proto, found);
  return found;
}

const methodSets = new WeakMap<object, Set<Function>>();
