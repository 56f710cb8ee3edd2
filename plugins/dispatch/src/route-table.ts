// What a route table is: one controller's segments and what each selects, looked up without a
// property read. How tables are built from classes and instances is `controller-tables.ts`.
import { SPECIAL_NAMES } from './names.ts';
import { MAX_SEGMENT_BYTES } from './path.ts';

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
    // How a value becomes a table (`controller-tables.ts`, which builds the entries): given,
    // so that this file, which only describes tables, imports none of the building.
    private readonly tableOf: (value: object) => RouteTable | null,
  ) {}

  /** The child's route table, or `null` when the child is not a controller object. */
  table(): RouteTable | null {
    if (this.resolved === undefined) this.resolved = this.tableOf(this.value);
    return this.resolved;
  }
}

/** What one class chain (or a hand-made controller) contributes to a route table. */
export interface Layer {
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

/**
 * An entry as messages name it.
 *
 * @example
 * ```ts
 * describeEntry(table.find('books')!); // 'child "books"'
 * ```
 */
export function describeEntry(entry: RouteEntry): string {
  return entry.kind === 'method' ? `method "${entry.name}"` : `child "${entry.name}"`;
}
