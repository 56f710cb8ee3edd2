// The route tables of controller objects: built once per class (its own and inherited members,
// read through property descriptors, so no getter runs) and once per instance (its own data
// properties that hold objects: children), then cached; and which objects are controllers.
import { types } from 'node:util';
import { markControllerMethod } from './class-methods.ts';
import { dispatchError } from './errors.ts';
import { exposureOf, type Exposure } from './exposure.ts';
import { SPECIAL_NAMES, controllerName, isRoutableName } from './names.ts';
import { MAX_SEGMENTS } from './path.ts';
import { mountsOf } from './route.ts';
import { ChildEntry, describeEntry, RouteTable, type Layer, type RouteEntry } from './route-table.ts';

const EMPTY_LAYER: Layer = { entries: new Map(), specials: {}, handlers: new Map(), explicit: new Set(), routable: false };
const classTables = new WeakMap<object, Layer>();
const instanceTables = new WeakMap<object, RouteTable>();
const controllerFlags = new WeakMap<object, boolean>();

/**
 * The route table of a controller object (built on first use, then cached), or `undefined` for a
 * value routing never enters (not an object, an array, a typed array, a function or a Proxy).
 * Throws a coded error for a mistake in the class (route collision, misplaced `when`, …).
 *
 * @example
 * ```ts
 * routeTableOf(new RootController())?.find('hours')?.kind; // 'method'
 * ```
 */
export function routeTableOf(value: unknown): RouteTable | undefined {
  if (!isEnterable(value)) return undefined;
  const cached = instanceTables.get(value);
  if (cached) return cached;
  const table = buildInstanceTable(value);
  instanceTables.set(value, table);
  return table;
}

/**
 * True for a controller object: an object whose route table has an exposed method, a mounted
 * route, a `_lookup`/`_default`/`_route`, or a child that is itself a controller object. Routing
 * only ever enters controller objects.
 *
 * @example
 * ```ts
 * isController(new BooksController()); // true
 * isController({ name: 'Dune' });      // false
 * ```
 */
export function isController(value: unknown): value is object {
  return controllerAt(value, 0) === true;
}

// `unknown`: the answer depends on objects deeper than any path reaches, so it is not cached (the
// same object met nearer the root is looked at again). The depth bound also keeps a long chain of
// plain objects (a linked list in a public field) from overflowing the stack.
function controllerAt(value: unknown, depth: number): boolean | 'unknown' {
  if (!isEnterable(value)) return false;
  const known = controllerFlags.get(value);
  if (known !== undefined) return known;
  if (depth > MAX_SEGMENTS) return 'unknown';
  controllerFlags.set(value, false); // a cycle back to this object counts for nothing
  const table = routeTableOf(value)!;
  let result = table.routable;
  let truncated = false;
  if (!result) {
    for (const [, entry] of table.entries()) {
      if (entry.kind !== 'child') continue;
      const child = controllerAt(entry.value, depth + 1);
      if (child === true) {
        result = true;
        break;
      }
      if (child === 'unknown') truncated = true;
    }
  }
  if (result || !truncated) controllerFlags.set(value, result);
  else controllerFlags.delete(value);
  return result ? true : truncated ? 'unknown' : false;
}

function isEnterable(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !types.isProxy(value);
}

function prototypeChain(start: object | null): object[] {
  const chain: object[] = [];
  for (let p = start; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) chain.push(p);
  return chain;
}

function buildInstanceTable(instance: object): RouteTable {
  const proto = Object.getPrototypeOf(instance) as object | null;
  const owner = controllerName(instance);
  const ownNames = Object.getOwnPropertyNames(instance);
  if (ownNames.length === 0) return new RouteTable(owner, classLayer(proto), undefined, undefined);
  // Own functions that are exposed or special make this a hand-made controller: one full layer.
  if (ownNames.some((name) => ownFunctionMatters(instance, name))) {
    return new RouteTable(owner, buildLayer(owner, [instance, ...prototypeChain(proto)]), undefined, undefined);
  }
  const base = classLayer(proto);
  const own = new Map<string, RouteEntry>();
  const shadowed = new Set<string>(ownNames);
  for (const name of ownNames) {
    if (!isRoutableName(name)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(instance, name);
    if (!descriptor || !('value' in descriptor) || !isEnterable(descriptor.value)) continue;
    const claimed = base.entries.get(name);
    if (claimed && base.explicit.has(name)) {
      throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', name, owner, `the property "${name}"`, describeEntry(claimed));
    }
    own.set(name, new ChildEntry(descriptor.value as object, name, childTable));
  }
  return new RouteTable(owner, base, own, shadowed);
}

function ownFunctionMatters(instance: object, name: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(instance, name);
  if (!descriptor || typeof descriptor.value !== 'function') return false;
  return SPECIAL_NAMES.has(name) || exposureOf(descriptor.value) !== undefined;
}

function classLayer(proto: object | null): Layer {
  if (proto === null || proto === Object.prototype) return EMPTY_LAYER;
  let layer = classTables.get(proto);
  if (!layer) {
    layer = buildLayer(controllerName(Object.create(proto) as object), prototypeChain(proto));
    classTables.set(proto, layer);
  }
  return layer;
}

interface Member {
  readonly name: string;
  readonly fn: Function;
  readonly exposure: Exposure;
}

// Builds the table of a chain of objects, most derived first: the first object defining a name
// wins (an override without @expose hides the exposed base method; an accessor hides it too).
function buildLayer(owner: string, levels: readonly object[]): Layer {
  const seen = new Set<string>();
  const members: Member[] = [];
  const children: Array<[string, object]> = [];
  const specials: Layer['specials'] = {};
  for (const level of levels) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const descriptor = Object.getOwnPropertyDescriptor(level, name);
      if (!descriptor || !('value' in descriptor)) continue;
      const value: unknown = descriptor.value;
      if (SPECIAL_NAMES.has(name)) {
        if (typeof value !== 'function') continue;
        if (exposureOf(value)?.generic) throw dispatchError('HICKORY_ERR_DISPATCH_GENERIC_SPECIAL', owner, name);
        const explicitRoute = exposureOf(value)?.route;
        if (explicitRoute !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_SPECIAL', owner, name, explicitRoute);
        specials[name as keyof Layer['specials']] = value;
        continue;
      }
      if (!isRoutableName(name)) continue;
      if (typeof value === 'function') {
        const exposure = exposureOf(value);
        if (exposure) {
          members.push({ name, fn: value, exposure });
          markControllerMethod(value);
        }
      } else if (isEnterable(value)) {
        children.push([name, value]);
      }
    }
  }
  const entries = new Map<string, RouteEntry>();
  const explicit = new Set<string>();
  const claim = (segment: string, entry: RouteEntry) => {
    const other = entries.get(segment);
    if (other) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', segment, owner, describeEntry(other), describeEntry(entry));
    entries.set(segment, entry);
  };
  for (const member of members) {
    if (member.exposure.when) continue;
    const segment = member.exposure.route ?? member.name;
    if (member.exposure.route !== undefined && seen.has(segment)) {
      throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', segment, owner, `member "${segment}"`, `the route of method "${member.name}"`);
    }
    claim(segment, { kind: 'method', fn: member.fn, name: member.name });
    if (member.exposure.route !== undefined) explicit.add(segment);
  }
  for (const [name, value] of children) claim(name, new ChildEntry(value, name, childTable));
  const mounted = new Set<string>();
  let mountCount = 0;
  for (const level of levels) {
    const table = mountsOf(level);
    if (!table) continue;
    for (const [segment, target] of table) {
      if (mounted.has(segment)) continue; // a subclass's mount replaces its base class's
      mounted.add(segment);
      if (seen.has(segment)) throw dispatchError('HICKORY_ERR_DISPATCH_ROUTE_COLLISION', segment, owner, `member "${segment}"`, 'route()');
      mountCount++;
      explicit.add(segment);
      claim(segment, typeof target === 'function' ? { kind: 'method', fn: target, name: segment } : new ChildEntry(target, segment, childTable));
    }
  }
  const handlers = linkHandlers(owner, members);
  const exposedCount = members.filter((m) => !m.exposure.when).length;
  const routable = exposedCount > 0 || mountCount > 0 || Object.keys(specials).length > 0;
  return { entries, specials, handlers, explicit, routable };
}

function linkHandlers(owner: string, members: readonly Member[]): Map<Function, Map<string, Function>> {
  const handlers = new Map<Function, Map<string, Function>>();
  const byName = new Map(members.map((m) => [m.name, m]));
  const names = new Map<Function, string>(members.map((m) => [m.fn, m.name]));
  for (const member of members) {
    const link = member.exposure.when;
    if (!link) continue;
    const target = byName.get(link.target);
    if (!target || !target.exposure.generic || target.exposure.when) {
      throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_TARGET', owner, member.name, link.target, link.target);
    }
    let map = handlers.get(target.fn);
    if (!map) handlers.set(target.fn, (map = new Map()));
    for (const method of link.methods) {
      const existing = map.get(method);
      if (existing && existing !== member.fn) {
        throw dispatchError('HICKORY_ERR_DISPATCH_WHEN_DUPLICATE', owner, method, link.target, names.get(existing), member.name);
      }
      map.set(method, member.fn);
    }
  }
  return handlers;
}

// What a child entry's value is to routing: its table when it is a controller object, else nothing.
function childTable(value: object): RouteTable | null {
  return isController(value) ? routeTableOf(value)! : null;
}
