import { annotateRoutes } from '@hickory/dispatch/kit';
import { hooksOf } from './controller-hooks.ts';
import { isTransactional } from './transactional.ts';

/**
 * What the route map (`hickory routes`, `app.routes()`) says of a route for this package: the
 * controller hooks (`@hooks`) that run for it, outermost controller first, and whether its handler
 * is `@transactional`. Application hooks (the `hooks` configuration key) run for every route and are
 * not repeated on each.
 *
 * @example
 * ```ts
 * hookMarks([root, admin], AdminController.prototype.delete); // { hooks: ['TransactionHook'], transactional: true }
 * ```
 */
function hookMarks(way: readonly object[], handler: Function | undefined): Record<string, unknown> | undefined {
  const hooks = way.flatMap((controller) => hooksOf(controller).map((hook) => hook.constructor.name));
  const transactional = handler !== undefined && isTransactional(handler, way[way.length - 1]);
  if (hooks.length === 0 && !transactional) return undefined;
  return { ...(hooks.length > 0 ? { hooks } : {}), ...(transactional ? { transactional: true } : {}) };
}

// Once, when the package is loaded: the marks are facts of the classes, not of an app.
annotateRoutes(hookMarks);
