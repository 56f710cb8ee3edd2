import { isControllerMethod } from './class-methods.ts';
import { dispatchError } from './errors.ts';
import { describeValue } from './names.ts';
import { MAX_SEGMENTS } from './path.ts';
import { routeTableOf } from './controller-tables.ts';
import type { RouteTable } from './route-table.ts';
import { isRoutedMethod, type RoutedMethod } from './route-to.ts';

/** Where a method returned by `_route` runs, and what the walk enters to get there. */
export interface Owner {
  /** The controller the method is called on (`this`). */
  readonly controller: object;
  /** Its route table. */
  readonly table: RouteTable;
  /**
   * The controllers entered after the routing one, last the owner: the path from the routing
   * controller down to the owner (so every check between applies, as if the URL had named them),
   * or the owner alone when it is held elsewhere.
   */
  readonly path: readonly object[];
}

/**
 * The controller that a function returned by `_route` belongs to. `_route` may hand over another
 * controller's method (as a Pecan `_route` returns a bound method), and that method must run on its
 * own controller, behind every check it would have behind it if the path had led to it: so it is
 * never called on the routing controller by mistake. In order:
 * - `routeTo(owner, 'name')`: `owner` (with the path to it when it is under the routing controller);
 * - a method of the routing controller itself (anywhere in its class chain): `undefined`, its own;
 * - a method of a controller under it (children at any depth, as the walk reaches them by name):
 *   the nearest one; several equally near (two instances of one class) → an error naming them;
 * - a method of a controller held anywhere else → an error naming `routeTo`: JavaScript's
 *   `obj.method` forgets `obj`, so which object's checks apply cannot be told;
 * - a stand-alone exposed function (no controller's method, such as REST's automatic OPTIONS
 *   answer): `undefined`, called on the routing controller as the contract says.
 * Remembered per route table and function.
 *
 * @example
 * ```ts
 * routedOwner(delegate, routeTableOf(delegate)!, delegate.secret.index); // { controller: delegate.secret, … }
 * ```
 */
export function routedOwner(controller: object, table: RouteTable, target: Function | RoutedMethod): Owner | undefined {
  if (isRoutedMethod(target)) return boundOwner(controller, table, target.owner);
  let known = owners.get(table);
  if (known === undefined) owners.set(table, (known = new Map()));
  let found = known.get(target);
  if (found === undefined) known.set(target, (found = findOwner(controller, table, target)));
  if (typeof found === 'string') throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_OWNER', table.owner, describeValue(target), found);
  return found ?? undefined;
}

// Per table and function: the owner, null for none (the controller's own, or a stand-alone
// function), or why it cannot be told (for the error).
const owners = new WeakMap<RouteTable, Map<Function, Owner | null | string>>();

function boundOwner(controller: object, table: RouteTable, owner: object): Owner | undefined {
  if (owner === controller) return undefined;
  const below = subtreeOf(controller, table).byController.get(owner);
  if (below !== undefined) return below;
  // Held elsewhere: its own checks (its class's, a secure() on it, the method's), none of the
  // controllers above it there, which this path never crossed.
  return { controller: owner, table: routeTableOf(owner)!, path: [owner] };
}

function findOwner(controller: object, table: RouteTable, fn: Function): Owner | null | string {
  if (holds(controller, fn)) return null;
  let found: Owner | undefined;
  const names: string[] = [];
  for (const place of subtreeOf(controller, table).nearestFirst) {
    if (found !== undefined && place.path.length > found.path.length) break;
    if (!holds(place.controller, fn)) continue;
    names.push(place.name);
    found ??= place;
  }
  if (names.length > 1) return `a method that several controllers under it share (${names.join(', ')})`;
  if (found !== undefined) return found;
  return isControllerMethod(fn) ? 'a method of a controller that is not under it (held elsewhere)' : null;
}

interface Place extends Owner {
  /** The path's segments, for messages (`reports/yearly`). */
  readonly name: string;
}

interface Subtree {
  /** Every controller under the routing one, each once, by its shortest path, nearest first. */
  readonly nearestFirst: readonly Place[];
  readonly byController: Map<object, Place>;
}

const subtrees = new WeakMap<RouteTable, Subtree>();

// The controllers the walk can reach by name below `controller`, breadth first: each once (the
// first path found is a shortest), never back to one already met (a cycle), at most as deep as a
// path can go. Children only: what `_lookup` or `_route` make per request is no one's by name.
function subtreeOf(controller: object, table: RouteTable): Subtree {
  const cached = subtrees.get(table);
  if (cached !== undefined) return cached;
  const nearestFirst: Place[] = [];
  const byController = new Map<object, Place>();
  const seen = new Set<object>([controller]);
  let level: Array<{ table: RouteTable; path: readonly object[]; name: string }> = [{ table, path: [], name: '' }];
  for (let depth = 1; depth <= MAX_SEGMENTS && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const from of level) {
      for (const [segment, entry] of from.table.entries()) {
        if (entry.kind !== 'child' || seen.has(entry.value)) continue;
        const child = entry.table();
        if (child === null) continue;
        seen.add(entry.value);
        const place: Place = { controller: entry.value, table: child, path: [...from.path, entry.value], name: from.name === '' ? segment : `${from.name}/${segment}` };
        nearestFirst.push(place);
        byController.set(entry.value, place);
        next.push(place);
      }
    }
    level = next;
  }
  const subtree = { nearestFirst, byController };
  subtrees.set(table, subtree);
  return subtree;
}

// True when `target` holds `fn`: a function of its own (a hand-made controller) or along its class chain.
function holds(target: object, fn: Function): boolean {
  if (methodsOf(target).has(fn)) return true;
  for (const name of Object.getOwnPropertyNames(target)) {
    if (Object.getOwnPropertyDescriptor(target, name)?.value === fn) return true;
  }
  return false;
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
