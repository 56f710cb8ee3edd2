import type { Request } from '@hickory/core';
import { isThenable } from '@hickory/core/kit';
import type { WalkBudget } from './resolution.ts';

/**
 * A guard's check: runs with the guarded controller (or, for a handler's guard, the controller
 * the handler belongs to), the request, and the controller that holds the guarded one (the one
 * the walk came from: by name, `_lookup` or `_route`; `undefined` for the root and for a
 * handler's guard); refuses by throwing (`abort(401)`), may be async.
 */
export type GuardCheck = (controller: object, request: Request, holder: object | undefined) => unknown;

/** How a guard composes with others. */
export interface GuardOptions {
  /**
   * A default for what the controller holds, as a SecureController's `check_permissions` (Pecan's
   * rule): a method of it, or a child held by it, that has a guard of its own is checked by that
   * guard instead. Reached through its `_lookup` or `_route`, the controller's guard still runs
   * (before them).
   */
  readonly yields?: boolean;
}

const guards = new WeakMap<object, GuardCheck[]>();
const yielding = new WeakSet<GuardCheck>();
const opened = new WeakSet<object>();
let declared = 0;

/**
 * Guards a part of the controller tree: `target` is a controller object, a controller class (its
 * instances and its subclasses' instances) or an exposed method. Routing then runs `check`
 * before it uses anything at or below a guarded controller — its methods, its `_lookup`,
 * `_route` and `_default`, the controllers they return, its children — and before a guarded
 * method runs, even when the path leads nowhere (so a refused client cannot tell what exists).
 * Checks run outermost first, each once per routing. The mechanism under `secure()`; it holds
 * without any plugin, since the walk itself enforces it. See {@link GuardOptions} for `yields`.
 *
 * @example
 * ```ts
 * guard(AdminController, (_controller, request) => { if (!request.context.user) abort(401); });
 * ```
 */
export function guard(target: object, check: GuardCheck, options?: GuardOptions): void {
  if (options?.yields === true) yielding.add(check);
  const list = guards.get(target);
  if (list === undefined) guards.set(target, [check]);
  else list.push(check);
  declared++;
}

/**
 * Opens a part of a guarded tree again: the guards of the controllers above `target` (a
 * controller object, a class, or an exposed method) do not apply to it and below it, when
 * routing reaches it by name. `target`'s own guards, and those below it, still do.
 *
 * @example
 * ```ts
 * openGuards(admin.help); // /admin/help/ is public, the rest of /admin/ is not
 * ```
 */
export function openGuards(target: object): void {
  opened.add(target);
  declared++;
}

/**
 * True when any {@link guard} or {@link openGuards} was declared in this process: routing then
 * takes the full walk and runs the checks; otherwise it pays nothing for them.
 *
 * @example
 * ```ts
 * if (guardsDeclared()) budget.checked = 0;
 * ```
 */
export function guardsDeclared(): boolean {
  return declared > 0;
}

/**
 * Runs the checks still due along a walk's trail: those of the guarded controllers entered and
 * not yet checked, from the last opened one (or the last one an opened `_lookup` returned) inward
 * (outermost first). A yielding guard (see {@link GuardOptions}) is left out when what follows its
 * controller has a guard of its own. Then `handler`'s own
 * checks when given (unless it is opened: then the trail's pending checks are skipped). At once
 * when every check answers at once, else a promise. Internal to this package.
 *
 * @example
 * ```ts
 * const due = runDueChecks(budget, request, undefined); // before a `_lookup` is called
 * if (due !== undefined) await due;
 * ```
 */
export function runDueChecks(budget: WalkBudget, request: Request, handler: Function | undefined, owner?: object): void | Promise<void> {
  const trail = budget.trail;
  if (trail === undefined || budget.checked === undefined) return undefined;
  const calls: Call[] = [];
  let from = budget.checked;
  for (let i = trail.length - 1; i >= from; i--) {
    if (isOpened(trail[i]!) || budget.openedAt?.includes(i) === true) {
      from = i;
      break;
    }
  }
  if (handler !== undefined && opened.has(handler)) from = trail.length;
  const own = handler === undefined ? undefined : guards.get(handler);
  const target = owner ?? trail[trail.length - 1]!;
  for (let i = from; i < trail.length; i++) {
    // What stands alone right after this controller: a child it holds, or the handler of its own.
    const next = i + 1 < trail.length ? guards.has(trail[i + 1]!) : own !== undefined && target === trail[i];
    collectChecks(trail, i, calls, budget.passed, next);
  }
  budget.checked = trail.length;
  if (own !== undefined) for (const check of own) calls.push([check, target, undefined]);
  return runChecks(calls, request, 0);
}

/**
 * Turns checks on for a walk that began before any guard existed (the first instance of a
 * guarded class made by a `_lookup` or `_route`): what it enters from here on is checked. The
 * controllers before could not be guarded when the walk passed them. Internal to this package.
 *
 * @example
 * ```ts
 * if (budget.checked === undefined && guardsDeclared()) startChecks(budget);
 * ```
 */
export function startChecks(budget: WalkBudget): void {
  budget.trail ??= [];
  budget.checked = budget.trail.length;
  budget.passed ??= new Set();
}

/**
 * True when `target` (a controller, or an exposed method) has guards of its own or through its
 * classes; for tools such as the route map.
 *
 * @example
 * ```ts
 * hasGuards(new AdminController()); // true for a SecureController
 * ```
 */
export function hasGuards(target: object): boolean {
  if (guards.has(target)) return true;
  if (typeof target === 'function') return false;
  for (let proto = Object.getPrototypeOf(target); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (guards.has(proto.constructor as object)) return true;
  }
  return false;
}

/**
 * True when `target` (a controller or an exposed method) was opened with {@link openGuards}
 * (itself or through its classes).
 *
 * @example
 * ```ts
 * isOpened(admin.help); // true after openGuards(admin.help)
 * ```
 */
export function isOpened(controller: object): boolean {
  if (opened.has(controller)) return true;
  for (let proto = Object.getPrototypeOf(controller); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (opened.has(proto.constructor as object)) return true;
  }
  return false;
}

type Call = [GuardCheck, object, object | undefined];

// The checks of the trail's controller at `at`: its classes', base classes first, then its own;
// each controller once per routing. With `nextStandsAlone` (what it leads to has a guard of its
// own), its yielding guards are left out — and it is not marked as passed, since another way
// through it may need them.
function collectChecks(trail: readonly object[], at: number, calls: Call[], passed: Set<object> | undefined, nextStandsAlone: boolean): void {
  const controller = trail[at]!;
  if (passed?.has(controller) === true) return;
  const holder = at > 0 ? trail[at - 1] : undefined;
  let skipped = false;
  const add = (list: readonly GuardCheck[]) => {
    for (const check of list) {
      if (nextStandsAlone && yielding.has(check)) skipped = true;
      else calls.push([check, controller, holder]);
    }
  };
  const classes: GuardCheck[][] = [];
  for (let proto = Object.getPrototypeOf(controller); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const found = guards.get(proto.constructor as object);
    if (found !== undefined) classes.unshift(found);
  }
  for (const list of classes) add(list);
  const own = guards.get(controller);
  if (own !== undefined) add(own);
  if (!skipped) passed?.add(controller);
}

function runChecks(calls: Call[], request: Request, from: number): void | Promise<void> {
  for (let i = from; i < calls.length; i++) {
    const [check, controller, holder] = calls[i]!;
    const result: unknown = check(controller, request, holder);
    if (isThenable(result)) return Promise.resolve(result).then(() => runChecks(calls, request, i + 1));
  }
  return undefined;
}
