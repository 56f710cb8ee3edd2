// The shapes a walk works with, apart from the walk itself (so that what the walk calls can name
// them without importing it).
import type { RouteTable } from './route-table.ts';

/**
 * Where a walk ended: a function to call on a controller with the segments left over.
 *
 * @example
 * ```ts
 * const found: Resolution | undefined = await walk(root, ['books', '7'], request);
 * ```
 */
export interface Resolution {
  /** The controller the function is called on (`this`). */
  readonly controller: object;
  /** That controller's route table. */
  readonly table: RouteTable;
  /** The exposed method, `_default`, or a `_route` target. */
  readonly fn: Function;
  /** The path segments left for the function's arguments (empty segments dropped). */
  readonly remainder: readonly string[];
  /** True when an `index` was reached without its trailing slash (a canonical redirect is due). */
  readonly canonical: boolean;
}

/**
 * Counters shared by one request's walk (and the walks its `_lookup`s start).
 *
 * @example
 * ```ts
 * walk(root, segments, request, { lookups: 0, routes: 0 });
 * ```
 */
export interface WalkBudget {
  lookups: number;
  routes: number;
  /** When recording (see `recordWalks`) or guarding: the controllers entered so far, root first. */
  trail?: object[];
  /** When guarding (see `guard`): how much of the trail has had its checks run. */
  checked?: number;
  /** When guarding: the controllers whose checks ran in this routing (a second walk skips them). */
  passed?: Set<object>;
  /**
   * When guarding: the places in the trail of controllers returned by an opened (`@unlocked`)
   * `_lookup` — entered as an opened child is, so the checks before them do not apply to them.
   */
  openedAt?: number[];
}
