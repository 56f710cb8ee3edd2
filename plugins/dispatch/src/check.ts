import type { Kernel } from '@hickory/core';
import { dispatchError } from './errors.ts';
import { checkExplicitHandler } from './explicit-handler.ts';
import { unmarkedWrapperName } from './wraps.ts';
import { exposureOf } from './exposure.ts';
import { handlerSchemas } from './handler-schemas.ts';
import { controllerName, describeValue } from './names.ts';
import { isController, routeTableOf } from './route-table.ts';

/**
 * Checks the controller tree reachable from `kernel.root` at `ready()`: a root is set and is a
 * controller, every class's route table builds (no collisions, no misplaced `when` or
 * `generic`), every template has a renderer, and every schema (`args`, `body`) is a Standard
 * Schema whose `args` keys name parameters. Controllers that only `_lookup` or `_route`
 * create are checked when first routed. Outside production, a controller reachable at two paths
 * is logged as a warning: the second is usually a field that was meant to be private.
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
  // Breadth first, so that each controller's first path is its shortest one.
  const pathOf = new Map<object, string>([[root, '/']]);
  const aliases: Array<[first: string, again: string, controller: object]> = [];
  const pending: object[] = [root];
  for (let i = 0; i < pending.length; i++) {
    const controller = pending[i]!;
    const path = pathOf.get(controller)!;
    const table = routeTableOf(controller)!;
    for (const [name, fn] of table.functions()) {
      checkTemplates(kernel, controllerName(controller), name, fn);
      // _lookup and _route take segments, not the request and the response.
      if (name !== '_lookup' && name !== '_route') {
        const wrapper = unmarkedWrapperName(controller, fn);
        if (wrapper !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_WRAPPER', `${controllerName(controller)}.${wrapper}`);
        if (kernel.config.use_context_locals === false) checkExplicitHandler(fn, controllerName(controller));
      }
      handlerSchemas(fn, kernel.config.use_context_locals === false, controller);
    }
    for (const [segment, entry] of table.entries()) {
      if (entry.kind !== 'child' || !isController(entry.value)) continue;
      const childPath = `${path}${segment}/`;
      const known = pathOf.get(entry.value);
      if (known !== undefined) aliases.push([known, childPath, entry.value]);
      else {
        pathOf.set(entry.value, childPath);
        pending.push(entry.value);
      }
    }
  }
  if (process.env['NODE_ENV'] !== 'production') for (const [first, again, controller] of aliases) warnAlias(kernel, first, again, controller);
  return root;
}

// TypeScript's `private` is gone at run time, so `private readonly shelf = { books }` makes
// /shelf/books/ a second way into /books/ (past whatever guards the first). Told in development.
function warnAlias(kernel: Kernel, first: string, again: string, controller: object): void {
  // The first field where the second path leaves the first: `shelf` for /books/ and /shelf/books/.
  const ours = first.split('/').filter(Boolean);
  const theirs = again.split('/').filter(Boolean);
  const field = theirs.find((segment, i) => segment !== ours[i]) ?? theirs.at(-1)!;
  kernel.logger.warn(
    `${controllerName(controller)} is routable at ${first} and again at ${again}: routing follows every public field, ` +
      `and TypeScript's private or protected does not hide one. If ${again} is not meant to be a URL, ` +
      `rename the field ${field} to #${field} or _${field}.`,
  );
}

function checkTemplates(kernel: Kernel, owner: string, name: string, fn: Function): void {
  for (const rendering of exposureOf(fn)?.renderings ?? []) {
    const template = rendering.template;
    if (template === undefined || template === 'json') continue;
    const { engine, available } = kernel.rendererFor(template);
    if (!available) throw dispatchError('HICKORY_ERR_DISPATCH_NO_RENDERER', owner, name, template, engine);
  }
}
