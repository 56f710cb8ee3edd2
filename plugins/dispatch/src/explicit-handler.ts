import { dispatchError } from './errors.ts';
import { parametersOf } from './parameters.ts';

const checked = new WeakSet<Function>();

/**
 * With `use_context_locals: false`, refuses a handler that cannot take the request and the
 * response first: one that declares no parameter (Pecan calls it with the two, and fails), or one
 * parameter (not a rest one) unless its name says it is the request (`request`, `req`,
 * `_request`…), which would silently get the Request as that parameter (`generic_put(_id)`). A
 * coded error names the handler and the fix; called at `ready()` for the tree and on the first
 * call of a handler a `_lookup` or `_route` reached. Handlers declaring a leading rest parameter,
 * or two and more, pass (names are not judged there).
 *
 * @example
 * ```ts
 * checkExplicitHandler(Things.prototype.generic_put, 'Things'); // throws HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER
 * ```
 */
export function checkExplicitHandler(fn: Function, owner: string): void {
  if (checked.has(fn)) return;
  const { list } = parametersOf(fn);
  const name = fn.name || '(anonymous)';
  if (list.length === 0) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER', `${owner}.${name}()`, 'and it declares no parameter for them', `${name}(request, response)`);
  }
  const only = list.length === 1 ? list[0]! : undefined;
  // Compilers may add digits to a name an import shadows (`request2`).
  if (only !== undefined && !only.rest && only.name !== null && !/^_*(request|req)\d*$/i.test(only.name)) {
    throw dispatchError('HICKORY_ERR_DISPATCH_EXPLICIT_HANDLER', `${owner}.${name}(${only.name})`, `so "${only.name}" would get the Request`, `${name}(request, response, ${only.name})`);
  }
  checked.add(fn);
}
