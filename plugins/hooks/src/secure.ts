import type { Request } from '@hickory/core';
import { describeValue, guard, openGuards, refuseLegacyDecorator } from '@hickory/dispatch/kit';
import { verdictOf } from './check-verdict.ts';
import { hooksError } from './errors.ts';

/**
 * A permission check: a function (called with the controller as `this` and the request; may be
 * async), or the name of a method of the controller (Pecan's `'check_permissions'`). Only `true`
 * (or a promise of `true`) lets the request through; anything else answers 401 — `false`, nothing,
 * and also `1`, `'false'`, `[]` or `{}` (those are also a warning outside production). An
 * `abort(403)` thrown by the check, or an `HTTPError` it returns, is answered as it is.
 */
export type PermissionCheck = string | ((this: any, request: Request) => unknown);

type Decorator = <T extends Function>(target: T, context?: ClassDecoratorContext | ClassMethodDecoratorContext) => T;

/**
 * Secures a part of the controller tree, as Pecan's `secure`. Three forms:
 * - `@secure(check)` on an exposed method: the check runs before that handler;
 * - `@secure(check)` on a controller class: before anything of its instances and below them;
 * - `secure(controller, check)` for a child object: `admin = secure(new Admin(), isStaff)`.
 *
 * The check runs when routing first uses the secured controller — before its handlers, its
 * `_lookup`, `_route` and `_default`, the controllers those return and its children — and also
 * when the path below it leads nowhere (a refused client gets 401, never a 404 that tells what
 * exists). Nested secured controllers each check, outermost first. Routing itself enforces it:
 * no plugin needs to be in use. Inside a {@link SecureController}, a method's own `@secure(check)`
 * and a `secure(child, check)` it holds are checked by that check alone (not also the class's
 * `check_permissions`), as Pecan's; a check named by a string on `secure(child, 'name')` is a
 * method of the object holding the child (the child's own when the holder has none).
 *
 * @example
 * ```ts
 * const isStaff = (request: Request) => request.context['user']?.staff === true;
 * class Root {
 *   admin = secure(new AdminController(), isStaff);
 *   @secure(isStaff) @expose() stats() { return collectStats(); }
 * }
 * ```
 */
export function secure(check: PermissionCheck): Decorator;
export function secure<T extends object>(controller: T, check: PermissionCheck): T;
export function secure(first: unknown, second?: unknown): unknown {
  if (second !== undefined) {
    if (typeof first !== 'object' || first === null) throw hooksError('HICKORY_ERR_HOOKS_SECURE_ARGS', `secure(controller, check) was given ${describeValue(first)} as the controller`);
    checkCheck(second);
    guard(first, permissionGuard(second as PermissionCheck, 'holder'));
    return first;
  }
  checkCheck(first);
  const check = first as PermissionCheck;
  return ((target: Function, context?: ClassDecoratorContext | ClassMethodDecoratorContext) => {
    refuseLegacyDecorator('secure', target, context);
    if (typeof target !== 'function' || (context !== undefined && context.kind !== 'class' && context.kind !== 'method')) {
      throw hooksError('HICKORY_ERR_HOOKS_SECURE_ARGS', `@secure(check) was applied to ${context?.kind ?? describeValue(target)}; use it on a controller class or an exposed method`);
    }
    guard(target, permissionGuard(check, 'controller'));
    return target;
  }) as Decorator;
}

/**
 * A controller whose every handler, and everything routed below it, is checked by the class's
 * `static check_permissions()` (Pecan's `SecureController`). Open a child or a method again with
 * {@link unlocked}.
 *
 * @example
 * ```ts
 * class AdminController extends SecureController {
 *   static override check_permissions() { return request.context['user']?.admin === true; }
 *   @expose() index() { return 'admin'; }
 * }
 * ```
 */
export class SecureController {
  /** The check of this controller class: `true` lets the request through; anything else answers 401. */
  static check_permissions(_request: Request): unknown {
    return false;
  }

  constructor() {
    // Declared with the first instance, not when this module loads: an application without any
    // secured controller keeps routing's fast path. No instance can be routed before it exists.
    declareSecureControllerGuard();
  }
}

let guardDeclared = false;

function declareSecureControllerGuard(): void {
  if (guardDeclared) return;
  guardDeclared = true;
  guard(
    SecureController,
    (controller, request) => {
      const owner = controller.constructor as typeof SecureController;
      return verdictOf(owner.check_permissions(request), () => `${owner.name || className(controller)}.check_permissions`, request);
    },
    // As Pecan's: a method's own @secure, or a secure(child, check) it holds, replaces this check.
    { yields: true },
  );
}

/**
 * Opens a part of a secured tree again, as Pecan's `unlocked`: `unlocked(controller)` for a child
 * object (`help = unlocked(new HelpController())`), `@unlocked` on a controller class or an
 * exposed method. The checks of the secured controllers above it do not apply to it or below it;
 * its own, and those of secured controllers below it, still do. On a `_lookup`, the same holds
 * for the controllers it returns (the lookup runs unchecked); its controller's other members,
 * its `_default` and a lookup that finds nothing stay checked.
 *
 * @example
 * ```ts
 * class AdminController extends SecureController {
 *   help = unlocked(new HelpController());          // /admin/help/ is public
 *   @unlocked @expose() login() { return loginForm(); }
 * }
 * ```
 */
export function unlocked<T extends object>(target: T, context?: ClassDecoratorContext | ClassMethodDecoratorContext): T {
  refuseLegacyDecorator('unlocked', target, context);
  if ((typeof target !== 'object' && typeof target !== 'function') || target === null) {
    throw hooksError('HICKORY_ERR_HOOKS_SECURE_ARGS', `unlocked() was given ${describeValue(target)}; give it a controller, a class or a method`);
  }
  openGuards(target);
  return target;
}

function checkCheck(check: unknown): void {
  if (typeof check !== 'function' && (typeof check !== 'string' || check === '')) {
    throw hooksError('HICKORY_ERR_HOOKS_SECURE_ARGS', `the check must be a function or a method name, not ${describeValue(check)}`);
  }
}

// The guard for one check. A method name is looked up when the request comes: for a secured child
// object on the controller that holds it (as Pecan's), then on the child itself (what the name
// meant before it was the holder's); for a class or a method, on the controller.
function permissionGuard(check: PermissionCheck, namesOn: 'holder' | 'controller') {
  return (controller: object, request: Request, holder: object | undefined): unknown => {
    if (typeof check === 'function') return verdictOf(check.call(controller, request), () => `${check.name || '(anonymous)'} (securing ${className(controller)})`, request);
    const on = namesOn === 'holder' && holder !== undefined && methodNamed(holder, check) !== undefined ? holder : controller;
    const method = methodNamed(on, check);
    if (method === undefined) throw hooksError('HICKORY_ERR_HOOKS_SECURE_CHECK', check, describeValue(controller));
    return verdictOf(method.call(on, request), () => `${className(on)}.${check}`, request);
  };
}

// A check named on `target`: its method, or a static method of its class.
function methodNamed(target: object, name: string): Function | undefined {
  const found = (target as Record<string, unknown>)[name] ?? (target.constructor as unknown as Record<string, unknown> | undefined)?.[name];
  return typeof found === 'function' ? found : undefined;
}

// For the warning about a check's result: the controller's class, as the application named it.
function className(controller: object): string {
  const name = (controller.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name !== '' ? name : 'a controller';
}
