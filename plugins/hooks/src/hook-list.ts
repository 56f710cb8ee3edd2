import { describeValue } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';
import { Hook, HOOK_METHODS } from './hook.ts';

/**
 * What is wrong with a list of hooks (the `hooks` configuration key, or `@hooks(...)`
 * arguments), or `undefined`: each item must be a `Hook` (an empty subclass is one, as in Pecan)
 * or an object with at least one hook method, and have a finite `priority` when it has one.
 *
 * @example
 * ```ts
 * hookListProblem(['audit']); // 'item 0 is "audit", which has no hook method'
 * ```
 */
export function hookListProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `got ${describeValue(value)}, not a list`;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const isHook = item instanceof Hook || (typeof item === 'object' && item !== null && HOOK_METHODS.some((m) => typeof (item as Record<string, unknown>)[m] === 'function'));
    if (!isHook) {
      return `item ${i} is ${describeValue(item)}, which has no hook method`;
    }
    const priority = (item as { priority?: unknown }).priority;
    if (priority !== undefined && (typeof priority !== 'number' || !Number.isFinite(priority))) {
      return `item ${i} (${describeValue(item)}) has priority ${describeValue(priority)}`;
    }
  }
  return undefined;
}

/**
 * {@link hookListProblem} as a check: the list itself, or HICKORY_ERR_HOOKS_LIST naming the item.
 *
 * @example
 * ```ts
 * const appHooks = checkHookList(config.hooks ?? []);
 * ```
 */
export function checkHookList(value: unknown): readonly Hook[] {
  const problem = hookListProblem(value);
  if (problem !== undefined) throw hooksError('HICKORY_ERR_HOOKS_LIST', problem);
  return value as Hook[];
}

/**
 * The priority of a hook (100 when it has none).
 *
 * @example
 * ```ts
 * priorityOf({ before() {} }); // 100
 * ```
 */
function priorityOf(hook: Hook): number {
  // A plain object listed as a hook may have no priority.
  return hook.priority ?? 100;
}

/**
 * `hooks` ordered by priority, lower first; equal priorities keep their order (a stable sort),
 * so the application's hooks come before the controllers', outer controllers before inner ones.
 * The same hook object listed twice runs once, at its first place.
 *
 * @example
 * ```ts
 * byPriority([late, early]); // [early, late] when early.priority < late.priority
 * ```
 */
export function byPriority(hooks: readonly Hook[]): readonly Hook[] {
  const unique = [...new Set(hooks)];
  return unique.sort((a, b) => priorityOf(a) - priorityOf(b));
}
