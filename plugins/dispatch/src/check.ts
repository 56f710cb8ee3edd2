import type { Kernel } from '@hickory/core';
import { dispatchError } from './errors.ts';
import { checkExplicitHandler } from './explicit-handler.ts';
import { unmarkedWrapperName } from './wraps.ts';
import { exposureOf } from './exposure.ts';
import { handlerSchemas } from './handler-schemas.ts';
import { responseSerializer } from './response-serializer.ts';
import { hasGuards, isOpened } from './guards.ts';
import { controllerName, describeValue } from './names.ts';
import { isController, routeTableOf } from './controller-tables.ts';

/**
 * Checks the controller tree reachable from `kernel.root` at `ready()`: a root is set and is a
 * controller, every class's route table builds (no collisions, no misplaced `when` or
 * `generic`), every template has a renderer that can render it (the file is there, the engine's
 * package installed: as its renderer's check tells), and every schema (`args`, `body`) is a Standard
 * Schema whose `args` keys name parameters; every response schema converts to JSON Schema and
 * compiles into its serializer. Controllers that only `_lookup` or `_route`
 * create are checked when first routed. Outside production, a controller reachable at two paths
 * is logged as a warning: the second is usually a field that was meant to be private; when only
 * one of the paths passes a `secure` check, the warning names the one that skips it.
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
  // The path of the guarded controller (`secure`) a controller's first path passes, if any.
  const guardOn = new Map<object, string | undefined>([[root, hasGuards(root) ? '/' : undefined]]);
  const aliases: Alias[] = [];
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
      // Synchronous here: ready() loaded the compiler before the tree is checked.
      if (exposureOf(fn)?.response !== undefined) void responseSerializer(fn, controller);
    }
    for (const [segment, entry] of table.entries()) {
      if (entry.kind !== 'child' || !isController(entry.value)) continue;
      const child = entry.value;
      const childPath = `${path}${segment}/`;
      // `unlocked` drops the checks above; the child's own still apply.
      const guard = hasGuards(child) ? childPath : isOpened(child) ? undefined : guardOn.get(controller);
      const known = pathOf.get(child);
      if (known !== undefined) aliases.push({ first: known, firstGuard: guardOn.get(child), again: childPath, againGuard: guard, controller: child });
      else {
        pathOf.set(child, childPath);
        guardOn.set(child, guard);
        pending.push(child);
      }
    }
  }
  if (process.env['NODE_ENV'] !== 'production') for (const alias of aliases) kernel.logger.warn(aliasWarning(alias));
  return root;
}

/** A controller found again at a second path, with the guarded controller each path passes. */
interface Alias {
  readonly first: string;
  readonly firstGuard: string | undefined;
  readonly again: string;
  readonly againGuard: string | undefined;
  readonly controller: object;
}

// TypeScript's `private` is gone at run time, so `private readonly shelf = { books }` makes
// /shelf/books/ a second way into /books/ (past whatever guards the first). Told in development.
// When only one of the two paths passes a `secure` check, the other is the way around it: that
// one is the path to hide, never the secured section.
function aliasWarning({ first, firstGuard, again, againGuard, controller }: Alias): string {
  const name = controllerName(controller);
  const why = "routing follows every public field, and TypeScript's private or protected does not hide one";
  if ((firstGuard === undefined) !== (againGuard === undefined)) {
    const [secured, guard, open] = firstGuard !== undefined ? [first, firstGuard, again] : [again, againGuard!, first];
    return (
      `${name} is routable at ${secured}, behind the security check of ${guard}, and again at ${open}, which skips that check: ${why}. ` +
      `If ${open} is not meant to be a URL, ${renameHint(open, secured)} (hide this path, not the secured one).`
    );
  }
  return `${name} is routable at ${first} and again at ${again}: ${why}. If ${again} is not meant to be a URL, ${renameHint(again, first)}.`;
}

// The first field where `path` leaves `other`: `shelf` for /shelf/books/ against /books/.
function renameHint(path: string, other: string): string {
  const ours = path.split('/').filter(Boolean);
  const theirs = other.split('/').filter(Boolean);
  const field = ours.find((segment, i) => segment !== theirs[i]) ?? ours.at(-1)!;
  return `rename the field ${field} to #${field} or _${field}`;
}

function checkTemplates(kernel: Kernel, owner: string, name: string, fn: Function): void {
  for (const rendering of exposureOf(fn)?.renderings ?? []) {
    const template = rendering.template;
    if (template === undefined || template === 'json') continue;
    const { engine, available } = kernel.rendererFor(template);
    if (!available) throw dispatchError('HICKORY_ERR_DISPATCH_NO_RENDERER', owner, name, template, engine);
    // A missing file (or engine package) found now, not by the first request that renders it.
    const problem = kernel.templateProblem(template);
    if (problem !== undefined) throw dispatchError('HICKORY_ERR_DISPATCH_TEMPLATE_PROBLEM', owner, name, template, problem);
  }
}
