import { types } from 'node:util';
import { dispatchError } from './errors.ts';
import { exposureOf, type Exposure } from './exposure.ts';
import { mountsOf } from './route.ts';
import { markControllerMethod } from './class-methods.ts';
import { SPECIAL_NAMES, controllerName, isRoutableName } from './names.ts';
import { MAX_SEGMENT_BYTES, MAX_SEGMENTS } from './path.ts';

/** What a segment selects in a controller: an exposed method or a child (maybe a controller). */
export type RouteEntry = MethodEntry | ChildEntry;

/** A segment selecting an exposed method (called on the controller holding the table). */
export interface MethodEntry {
  readonly kind: 'method';
  readonly fn: Function;
  /** The member name (differs from the segment for explicit routes). */
  readonly name: string;
}

/**
 * A segment selecting an object held by the controller. Whether it is a controller is decided
 * on first use and remembered here, so the walk does one `Map.get` per segment.
 */
export class ChildEntry {
  readonly kind = 'child' as const;
  private resolved: RouteTable | null | undefined;
  constructor(
    readonly value: object,
    readonly name: string,
  ) {}

  /** The child's route table, or `null` when the child is not a controller object. */
  table(): RouteTable | null {
    if (this.resolved === undefined) this.resolved = isController(this.value) ? routeTableOf(this.value)! : null;
    return this.resolved;
  }
}

interface Layer {
  readonly entries: Map<string, RouteEntry>;
  readonly specials: { _lookup?: Function; _default?: Function; _route?: Function };
  readonly handlers: Map<Function, Map<string, Function>>;
  /** Segments claimed by an explicit route or a mount (an own property may not reuse them). */
  readonly explicit: Set<string>;
  readonly routable: boolean;
}

/**
 * The routing table of one controller: built once per class from its own and inherited members
 * (through property descriptors, so no getter runs), plus the instance's own data properties
 * that hold objects (child controllers) — built once per instance and cached.
 * Lookups are `Map.get`; nothing reads `controller[segment]`.
 */
export class RouteTable {
  /** Class name, for messages. */
  readonly owner: string;
  /** `index`, when it is an exposed method. */
  readonly index: Function | undefined;
  /** `_lookup`, `_default` and `_route` when defined (exposed or not), under their own names. */
  readonly _lookup: Function | undefined;
  readonly _default: Function | undefined;
  readonly _route: Function | undefined;
  /** True when the controller itself has an exposed method, a mount or a special method. */
  readonly routable: boolean;

  constructor(
    owner: string,
    private readonly base: Layer,
    private readonly own: Map<string, RouteEntry> | undefined,
    private readonly shadowed: Set<string> | undefined,
  ) {
    this.owner = owner;
    const index = this.find('index');
    this.index = index?.kind === 'method' ? index.fn : undefined;
    const hidden = (name: string) => shadowed?.has(name) === true;
    this._lookup = hidden('_lookup') ? undefined : base.specials._lookup;
    this._default = hidden('_default') ? undefined : base.specials._default;
    this._route = hidden('_route') ? undefined : base.specials._route;
    this.routable = base.routable;
  }

  /**
   * What `segment` selects here, or `undefined`.
   *
   * @example
   * ```ts
   * routeTableOf(root)?.find('books'); // { kind: 'child', value: BooksController {…}, name: 'books' }
   * ```
   */
  find(segment: string): RouteEntry | undefined {
    if (this.own !== undefined) {
      const entry = this.own.get(segment);
      if (entry !== undefined) return entry;
      if (this.shadowed!.has(segment)) return undefined;
    }
    return this.base.entries.get(segment);
  }

  private byFirst: Array<StaticCandidate[] | undefined> | undefined;

  /**
   * The entry whose segment starts at `start` in a raw path and ends there (at a `/` or the end
   * of the path), found without searching for the next `/` or making a string: candidates are
   * grouped by their first character. Only segments that are plain ASCII text (no `%`, `/`) and
   * within {@link MAX_SEGMENT_BYTES} can match; anything else gives `undefined`.
   *
   * @example
   * ```ts
   * table.matchAt('/catalog/books', 1)?.segment; // 'catalog'
   * ```
   */
  matchAt(path: string, start: number): StaticCandidate | undefined {
    const candidates = (this.byFirst ??= groupByFirst(this.entries()))[path.charCodeAt(start)];
    if (candidates === undefined) return undefined;
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i]!;
      const segment = candidate.segment;
      const end = start + segment.length;
      if (end !== path.length && path.charCodeAt(end) !== 47 /* / */) continue;
      // The first character is known to match; segments are short, so compare in a plain loop.
      let at = 1;
      while (at < segment.length && path.charCodeAt(start + at) === segment.charCodeAt(at)) at++;
      if (at === segment.length) return candidate;
    }
    return undefined;
  }

  /**
   * The `when()` handler of generic method `generic` for an upper-case HTTP method.
   *
   * @example
   * ```ts
   * table.handlerFor(Root.prototype.items, 'POST'); // Root.prototype.items_post
   * ```
   */
  handlerFor(generic: Function, method: string): Function | undefined {
    return this.base.handlers.get(generic)?.get(method);
  }

  /**
   * True when `segment` was claimed by `route()` or `expose({ route })` rather than by a member's
   * own name (for messages that must tell a mount from a field).
   *
   * @example
   * ```ts
   * routeTableOf(new CatalogController())?.isExplicit('new-arrivals'); // true: route(CatalogController, 'new-arrivals', …)
   * ```
   */
  isExplicit(segment: string): boolean {
    return this.base.explicit.has(segment) && this.own?.has(segment) !== true;
  }

  /** The HTTP methods with a `when()` handler on generic method `generic`. */
  handledMethods(generic: Function): readonly string[] {
    const map = this.base.handlers.get(generic);
    return map ? [...map.keys()] : [];
  }

  /** Every segment and what it selects (for checks at `ready()` and tooling). */
  *entries(): IterableIterator<[string, RouteEntry]> {
    if (this.own) yield* this.own;
    for (const pair of this.base.entries) {
      if (!this.shadowed?.has(pair[0]) && !this.own?.has(pair[0])) yield pair;
    }
  }

  /** Every function routing may call here: methods, special methods and `when()` handlers. */
  *functions(): IterableIterator<[string, Function]> {
    for (const [segment, entry] of this.entries()) if (entry.kind === 'method') yield [segment, entry.fn];
    for (const name of SPECIAL_NAMES) {
      const fn = this.base.specials[name as keyof Layer['specials']];
      if (fn) yield [name, fn];
    }
    for (const map of this.base.handlers.values()) for (const [method, fn] of map) yield [`when(${method})`, fn];
  }
}

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
    own.set(name, new ChildEntry(descriptor.value as object, name));
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
  for (const [name, value] of children) claim(name, new ChildEntry(value, name));
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
      claim(segment, typeof target === 'function' ? { kind: 'method', fn: target, name: segment } : new ChildEntry(target, segment));
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

/** A segment of a route table with what it selects (see {@link RouteTable.matchAt}). */
export interface StaticCandidate {
  readonly segment: string;
  readonly entry: RouteEntry;
  /** The method, for a method entry (saves a look at the entry's kind on the hot path). */
  readonly method: Function | undefined;
  /** The child, for a child entry. */
  readonly child: ChildEntry | undefined;
}

// Segments that a raw path can spell as they are: printable ASCII without `%` or `/`, short enough.
const PLAIN_SEGMENT = /^[\x21-\x24\x26-\x2e\x30-\x7e]+$/;

/**
 * True for a segment a raw path can spell as it is (printable ASCII without `%` or `/`, within
 * {@link MAX_SEGMENT_BYTES}): the only ones {@link RouteTable.matchAt} and the route plan match.
 *
 * @example
 * ```ts
 * isPlainSegment('new-arrivals'); // true
 * isPlainSegment('café');         // false: a client sends it percent-encoded
 * ```
 */
export function isPlainSegment(segment: string): boolean {
  return segment.length <= MAX_SEGMENT_BYTES && PLAIN_SEGMENT.test(segment);
}

function groupByFirst(entries: Iterable<[string, RouteEntry]>): Array<StaticCandidate[] | undefined> {
  const groups: Array<StaticCandidate[] | undefined> = new Array(128).fill(undefined);
  for (const [segment, entry] of entries) {
    if (!isPlainSegment(segment)) continue;
    const code = segment.charCodeAt(0);
    const candidate: StaticCandidate =
      entry.kind === 'method' ? { segment, entry, method: entry.fn, child: undefined } : { segment, entry, method: undefined, child: entry };
    (groups[code] ??= []).push(candidate);
  }
  return groups;
}

function describeEntry(entry: RouteEntry): string {
  return entry.kind === 'method' ? `method "${entry.name}"` : `child "${entry.name}"`;
}
