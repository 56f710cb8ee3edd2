import type { Hook } from './hook.ts';
import { byPriority } from './hook-list.ts';
import { hooksOf } from './controller-hooks.ts';

/**
 * The hooks in force for a routed request: the application's (already ordered), then those
 * declared with `@hooks(...)` on each controller the walk went through, root first, ordered by
 * priority (stable: application before controllers, outer before inner on equal priority). The
 * application's own list is returned as it is when no controller declares any.
 *
 * @example
 * ```ts
 * state.hooks = hooksInForce(appHooks, walkedControllers(request));
 * ```
 */
export function hooksInForce(appHooks: readonly Hook[], trail: readonly object[]): readonly Hook[] {
  let found: Hook[] | undefined;
  for (const controller of trail) {
    const own = hooksOf(controller);
    if (own.length > 0) (found ??= [...appHooks]).push(...own);
  }
  return found === undefined ? appHooks : byPriority(found);
}
