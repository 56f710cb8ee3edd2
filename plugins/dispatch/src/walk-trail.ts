import type { Kernel, Request } from '@hickory/core';
import { peekRoutingState, routingState } from './routing-state.ts';

/**
 * Whether a kernel's dispatch records walk trails: one object per kernel, read by the route tap
 * on every request, switched on by {@link recordWalks}. Off, routing records nothing.
 */
export interface TrailSwitch {
  on: boolean;
}

const switches = new WeakMap<Kernel, TrailSwitch>();

/**
 * The {@link TrailSwitch} of a kernel (made on first use); the dispatch plugin reads it per request.
 *
 * @example
 * ```ts
 * const trail = trailSwitchOf(kernel);
 * if (trail.on) startTrail(request, root);
 * ```
 */
export function trailSwitchOf(kernel: Kernel): TrailSwitch {
  let found = switches.get(kernel);
  if (found === undefined) switches.set(kernel, (found = { on: false }));
  return found;
}

/**
 * Asks dispatch to record, for every request from now on, the controllers its walk went through
 * on the way to the handler (see {@link walkedControllers}). For plugins that act on controllers
 * along the path (hooks, security); call it in `apply()` or a `ready` tap. Routing then always
 * takes the full walk (no fast path), so call it only when something will read the trail.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('audit', () => recordWalks(kernel));
 * ```
 */
export function recordWalks(kernel: Kernel): void {
  trailSwitchOf(kernel).on = true;
}

/**
 * Starts the trail of one walk of `request` at `root` (in its routing state) and returns it, for
 * the walk to extend. Internal to this package.
 *
 * @example
 * ```ts
 * walk(root, segments, request, { lookups: 0, routes: 0, trail: startTrail(request, root) });
 * ```
 */
export function startTrail(request: Request, root: object): object[] {
  const trail = [root];
  routingState(request).trail = trail;
  return trail;
}

/**
 * The controllers the last routing of `request` went through, from the root to the one whose
 * method answers: children by name, controllers returned by `_lookup` and `_route`, and nested
 * REST resources — not those a walk entered and left again when it fell back to an outer
 * `_lookup`/`_default`. Empty unless {@link recordWalks} was called for the kernel.
 *
 * @example
 * ```ts
 * walkedControllers(request).map((c) => c.constructor.name); // ['RootController', 'AdminController', 'UserController']
 * ```
 */
export function walkedControllers(request: Request): readonly object[] {
  return peekRoutingState(request)?.trail ?? NO_TRAIL;
}

const NO_TRAIL: readonly object[] = Object.freeze([]);
