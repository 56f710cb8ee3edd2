import { isThenable } from '@hickory/core/kit';
import type { Hook, HookState } from './hook.ts';

/**
 * Runs one hook method (`on_route`, `before` or `after`) of each hook in `hooks`, in order, each
 * after the previous one finished: at once while the methods answer at once, a promise from the
 * first one that returns a promise. A throw stops the run and is the request's error.
 *
 * @example
 * ```ts
 * await runHooks(byPriority(app), 'before', state);
 * ```
 */
export function runHooks(hooks: readonly Hook[], method: 'on_route' | 'before' | 'after', state: HookState): void | Promise<void> {
  for (let i = 0; i < hooks.length; i++) {
    const hook = hooks[i]!;
    const fn = hook[method];
    if (fn === undefined) continue;
    const result: unknown = fn.call(hook, state);
    if (isThenable(result)) return finishLater(result, hooks, i + 1, method, state);
  }
  return undefined;
}

async function finishLater(pending: PromiseLike<unknown>, hooks: readonly Hook[], from: number, method: 'on_route' | 'before' | 'after', state: HookState): Promise<void> {
  await pending;
  for (let i = from; i < hooks.length; i++) {
    const hook = hooks[i]!;
    if (hook[method] !== undefined) await hook[method]!(state);
  }
}

/**
 * Runs `on_error` of each hook in `hooks` in reverse order (as Pecan) until one returns a
 * value, which is returned (a `Response` to send instead).
 *
 * @example
 * ```ts
 * const replacement = await runErrorHooks(state.hooks, state, error);
 * ```
 */
export async function runErrorHooks(hooks: readonly Hook[], state: HookState, error: unknown): Promise<unknown> {
  for (let i = hooks.length - 1; i >= 0; i--) {
    const hook = hooks[i]!;
    if (hook.on_error === undefined) continue;
    const result: unknown = await hook.on_error(state, error);
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * The hooks in reverse order, for `after` (made once per list).
 *
 * @example
 * ```ts
 * runHooks(reversed(state.hooks), 'after', state);
 * ```
 */
export function reversed(hooks: readonly Hook[]): readonly Hook[] {
  let found = reversals.get(hooks);
  if (found === undefined) reversals.set(hooks, (found = [...hooks].reverse()));
  return found;
}

const reversals = new WeakMap<readonly Hook[], readonly Hook[]>();
