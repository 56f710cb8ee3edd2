import type { Kernel } from '@hickory/core';
import { isController, routeTableOf } from '@hickory/dispatch/kit';
import { checkCustomActions } from './custom-actions.ts';
import { RestController } from './rest-controller.ts';

/**
 * Checks every `RestController` reachable from `kernel.root` at `ready()`: its
 * `_custom_actions` name exposed methods and valid HTTP methods (a coded error names the class,
 * the action and the fix). Controllers that only a `_lookup` creates are read when first routed,
 * where an action naming no method is ignored (as in Pecan) rather than failing the request.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('rest', (k) => checkRestControllers(k));
 * ```
 */
export function checkRestControllers(kernel: Kernel): void {
  const root = kernel.root;
  if (!isController(root)) return;
  const seen = new Set<object>();
  const pending: object[] = [root];
  for (let controller = pending.pop(); controller !== undefined; controller = pending.pop()) {
    if (seen.has(controller)) continue;
    seen.add(controller);
    if (controller instanceof RestController) checkCustomActions(controller);
    for (const [, entry] of routeTableOf(controller)!.entries()) {
      if (entry.kind === 'child' && !seen.has(entry.value) && isController(entry.value)) pending.push(entry.value);
    }
  }
}
