import type { Request } from '@hickory/core';

// One symbol on the request for everything routing remembers about it (as Pecan's
// `request.pecan`). On the request itself, not in a WeakMap keyed by requests: a WeakMap cost a
// look-up per request and the garbage collector its ephemerons. Most requests never get one.
const STATE = Symbol('hickory.routing');

interface WithState {
  [STATE]?: RoutingState;
}

/**
 * A plugin's own typed entry in a request's {@link RoutingState} (see {@link RoutingState.get}).
 * Make one per fact, once, at module level.
 *
 * @example
 * ```ts
 * const TENANT = routingSlot<string>('my-plugin.tenant');
 * routingState(request).set(TENANT, 'acme');
 * routingState(request).get(TENANT); // 'acme'
 * ```
 */
export interface RoutingSlot<T> {
  /** For debugging: which plugin and fact. */
  readonly name: string;
  /** Never set: carries `T` for the type checker. */
  readonly type?: T;
}

/**
 * Makes a {@link RoutingSlot}: a key under which a routing plugin keeps one fact per request.
 *
 * @example
 * ```ts
 * const ALLOW = routingSlot<string>('rest.allow');
 * ```
 */
export function routingSlot<T>(name: string): RoutingSlot<T> {
  return Object.freeze({ name });
}

/**
 * What routing knows about one request, shared by dispatch and the plugins that route through
 * it (REST): made on first use by {@link routingState} and kept on the request, so concurrent
 * requests never see each other's. Dispatch starts each routing of a request (an internal
 * redirect, an error document) by dropping the routing arguments; the other fields say which
 * routing they belong to.
 *
 * @example
 * ```ts
 * // In a `_route`: the next handler receives the ids this controller consumed first.
 * routingState(request).addRoutingArgs(['1', '2']);
 * return [this.others, remainder];
 * ```
 */
export class RoutingState {
  /**
   * Path segments a self-routing controller consumed and the next handler receives first, before
   * its own path arguments (Pecan's `routing_args`): `GET /things/1/2/others/` → `others.index('1', '2')`.
   */
  routingArgs: string[] | undefined = undefined;
  /**
   * The ids a parent resource hands to the nested resource it routes into (REST), with the
   * child and the path they were given for, so that a stale hand-off is never taken elsewhere.
   */
  parentIds: ParentIds | undefined = undefined;
  /**
   * The controllers the last routing walked through, root first; recorded only when a plugin
   * asked (`recordWalks`). Read it with `walkedControllers(request)`.
   */
  trail: object[] | undefined = undefined;
  // Plugins' own facts (see `RoutingSlot`); most requests have none.
  private slots: Map<RoutingSlot<unknown>, unknown> | undefined = undefined;

  /**
   * Records segments the handler reached next receives first (see {@link RoutingState.routingArgs}).
   *
   * @example
   * ```ts
   * routingState(request).addRoutingArgs(['1', '2']);
   * ```
   */
  addRoutingArgs(args: readonly string[]): void {
    if (args.length === 0) return;
    if (this.routingArgs === undefined) this.routingArgs = [...args];
    else this.routingArgs.push(...args);
  }

  /**
   * `remainder` after the routing arguments, which are taken: the first handler found gets them.
   *
   * @example
   * ```ts
   * state.takeRoutingArgs(['7']); // ['1', '2', '7'] after addRoutingArgs(['1', '2'])
   * ```
   */
  takeRoutingArgs(remainder: readonly string[]): readonly string[] {
    const args = this.routingArgs;
    if (args === undefined) return remainder;
    this.routingArgs = undefined;
    return remainder.length === 0 ? args : [...args, ...remainder];
  }

  /**
   * Hands `ids` (the parents' ids, outermost first) to `child`, which routes `path` next.
   *
   * @example
   * ```ts
   * routingState(request).giveParentIds(this.books, request.path, ['1']); // GET /authors/1/books/2
   * ```
   */
  giveParentIds(child: object, path: string, ids: readonly string[]): void {
    this.parentIds = { child, path, ids };
  }

  /**
   * The ids handed to `controller` for `path` (empty when none were), taken once.
   *
   * @example
   * ```ts
   * routingState(request).takeParentIds(this, request.path); // ['1'] inside /authors/1/books/
   * ```
   */
  takeParentIds(controller: object, path: string): readonly string[] {
    const given = this.parentIds;
    if (given === undefined) return NO_IDS;
    this.parentIds = undefined;
    return given.child === controller && given.path === path ? given.ids : NO_IDS;
  }

  /**
   * A plugin's fact for this request, `undefined` until it {@link RoutingState.set}s one.
   *
   * @example
   * ```ts
   * routingState(request).get(ALLOW) ?? 'OPTIONS';
   * ```
   */
  get<T>(slot: RoutingSlot<T>): T | undefined {
    return this.slots?.get(slot) as T | undefined;
  }

  /**
   * Keeps a plugin's fact for this request.
   *
   * @example
   * ```ts
   * routingState(request).set(ALLOW, 'GET, HEAD, OPTIONS');
   * ```
   */
  set<T>(slot: RoutingSlot<T>, value: T): void {
    (this.slots ??= new Map()).set(slot, value);
  }
}

/** The parent ids one resource handed to the nested resource it routes into. */
export interface ParentIds {
  readonly child: object;
  readonly path: string;
  readonly ids: readonly string[];
}

const NO_IDS: readonly string[] = Object.freeze([]);

/**
 * The {@link RoutingState} of `request`, made on first use. Reading through
 * {@link peekRoutingState} instead makes nothing for a request that has none.
 *
 * @example
 * ```ts
 * routingState(request).addRoutingArgs(ids);
 * ```
 */
export function routingState(request: Request): RoutingState {
  return ((request as WithState)[STATE] ??= new RoutingState());
}

/**
 * The {@link RoutingState} of `request` when something was recorded, else `undefined` (nothing
 * is made): for readers on the request path.
 *
 * @example
 * ```ts
 * const ids = peekRoutingState(request)?.takeParentIds(this, request.path) ?? [];
 * ```
 */
export function peekRoutingState(request: Request): RoutingState | undefined {
  return (request as WithState)[STATE];
}
