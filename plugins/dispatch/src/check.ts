import type { Kernel } from '@hickory/core';
import { dispatchError } from './errors.ts';
import { exposureOf } from './exposure.ts';
import { controllerName, describeValue } from './names.ts';
import { isController, routeTableOf } from './route-table.ts';

/**
 * Checks the controller tree reachable from `kernel.root` at `ready()`: a root is set and is a
 * controller, every class's route table builds (no collisions, no misplaced `when` or
 * `generic`), and every template has a renderer. Controllers that only `_lookup` or `_route`
 * create are checked when first routed.
 *
 * @example
 * ```ts
 * kernel.hooks.ready.tap('dispatch', (k) => checkControllerTree(k));
 * ```
 */
export function checkControllerTree(kernel: Kernel): object {
  const root = kernel.root;
  if (root === undefined || root === null) throw dispatchError('HICKORY_ERR_DISPATCH_NO_ROOT');
  if (!isController(root)) throw dispatchError('HICKORY_ERR_DISPATCH_ROOT_NOT_CONTROLLER', describeValue(root));
  const seen = new Set<object>();
  const pending: object[] = [root];
  for (let controller = pending.pop(); controller !== undefined; controller = pending.pop()) {
    if (seen.has(controller)) continue;
    seen.add(controller);
    const table = routeTableOf(controller)!;
    for (const [name, fn] of table.functions()) checkTemplates(kernel, controllerName(controller), name, fn);
    for (const [, entry] of table.entries()) {
      if (entry.kind === 'child' && !seen.has(entry.value) && isController(entry.value)) pending.push(entry.value);
    }
  }
  return root;
}

function checkTemplates(kernel: Kernel, owner: string, name: string, fn: Function): void {
  for (const rendering of exposureOf(fn)?.renderings ?? []) {
    const template = rendering.template;
    if (template === undefined || template === 'json') continue;
    const { engine, available } = kernel.rendererFor(template);
    if (!available) throw dispatchError('HICKORY_ERR_DISPATCH_NO_RENDERER', owner, name, template, engine);
  }
}
