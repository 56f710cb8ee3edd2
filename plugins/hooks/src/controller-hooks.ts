import { refuseLegacyDecorator } from '@hickory/dispatch/kit';
import { hooksError } from './errors.ts';
import type { Hook } from './hook.ts';
import { hookListProblem } from './hook-list.ts';

const declared = new WeakMap<Function, readonly Hook[]>();
let declarations = 0;

/**
 * Class decorator: `hooks` apply to this controller and everything routed below it — children,
 * controllers a `_lookup` or `_route` returns, nested REST resources — and to subclasses. Plain
 * JavaScript: `hooks(new Audit())(AdminController)`. Define decorated classes before `ready()`:
 * the plugin decides then whether requests need hooks at all.
 *
 * @example
 * ```ts
 * @hooks(new TransactionHook(db))
 * class AdminController { @expose() index() { return 'admin'; } }
 * ```
 */
export function hooks(...list: Hook[]): <C extends Function>(target: C, context?: ClassDecoratorContext) => C {
  const problem = hookListProblem(list);
  if (problem !== undefined) throw hooksError('HICKORY_ERR_HOOKS_DECORATOR', `was given something that is not a hook: ${problem}`);
  const checked: readonly Hook[] = list;
  return <C extends Function>(target: C, context?: ClassDecoratorContext): C => {
    refuseLegacyDecorator('hooks', target, context);
    if (typeof target !== 'function' || (context !== undefined && context.kind !== 'class')) {
      throw hooksError('HICKORY_ERR_HOOKS_DECORATOR', `was applied to ${context?.kind ?? typeof target}`);
    }
    declared.set(target, [...(declared.get(target) ?? []), ...checked]);
    declarations++;
    return target;
  };
}

/**
 * The hooks `@hooks(...)` declared for a controller's class and its base classes (bases first).
 *
 * @example
 * ```ts
 * hooksOf(new AdminController()); // [TransactionHook]
 * ```
 */
export function hooksOf(controller: object): readonly Hook[] {
  let found: Hook[] | undefined;
  for (let proto = Object.getPrototypeOf(controller); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = declared.get(proto.constructor as Function);
    if (own !== undefined) (found ??= []).unshift(...own);
  }
  return found ?? NONE;
}

/**
 * How many `@hooks(...)` declarations exist in the process; the plugin taps nothing per request
 * when there are none and the application declares no hooks.
 *
 * @example
 * ```ts
 * if (declaredHookCount() === 0 && appHooks.length === 0) return; // nothing to run
 * ```
 */
export function declaredHookCount(): number {
  return declarations;
}

const NONE: readonly Hook[] = Object.freeze([]);
